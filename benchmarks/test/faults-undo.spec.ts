// The suite always undoes a fault: a real harness process (faults-support/stop-child.ts)
// SIGSTOPs a real `sleep`, then is interrupted. SIGINT/SIGTERM: its handlers send SIGCONT before it
// exits. SIGKILL: nothing runs in it, the journal stays, and its replay sends SIGCONT.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { replayJournal, replayLeftJournals, UndoJournal } from '../src/faults/journal';

const support = join(__dirname, 'faults-support');

// A bound that names a hang, not a speed check: each case starts a node child that compiles the
// harness's TypeScript, which on this shared 2-core machine under CI load outlasts Jest's 5 s default.
jest.setTimeout(60_000);

/** Process state letter from /proc/<pid>/stat: T = stopped, S/R = running. */
function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

const exited = (c: ChildProcess) => new Promise<void>((r) => c.once('exit', () => r()));

function sleeper(): ChildProcess {
  return spawn('sleep', ['600'], { stdio: 'ignore' });
}

/** Starts the miniature harness against `pid`; resolves once it says the fault is in effect (an event, not a delay). */
async function harness(dir: string, pid: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', join(support, 'swc-register.js'), join(support, 'stop-child.ts'), dir, String(pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (l) => l === 'injected' && resolve());
    child.once('exit', (code) => reject(new Error(`harness exited ${code} before injecting`)));
  });
  return child;
}

describe('a fault is undone when the harness is interrupted', () => {
  let dir: string;
  let sleep: ChildProcess;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sg-faults-'));
    sleep = sleeper();
  });

  afterEach(() => {
    sleep.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s: the harness sends SIGCONT before it exits and clears its journal', async (sig) => {
    const child = await harness(dir, sleep.pid!);
    expect(state(sleep.pid!)).toBe('T');
    expect(new UndoJournal(dir).pending()).toHaveLength(1);
    const done = exited(child);
    child.kill(sig);
    await done;
    expect(state(sleep.pid!)).not.toBe('T');
    expect(existsSync(new UndoJournal(dir).file)).toBe(false);
  });

  it('SIGKILL: the journal is left behind and its replay by the next start undoes the fault', async () => {
    const child = await harness(dir, sleep.pid!);
    const done = exited(child);
    child.kill('SIGKILL');
    await done;
    expect(state(sleep.pid!)).toBe('T');
    const journal = new UndoJournal(dir);
    expect(journal.pending()).toMatchObject([{ fault: 'sigstop-one:test', undo: { kind: 'continue', pid: sleep.pid } }]);

    const replayed = replayJournal(journal);
    expect(replayed.map((r) => r.error)).toEqual([null]);
    expect(state(sleep.pid!)).not.toBe('T');
    expect(existsSync(journal.file)).toBe(false);
  });

  it('the next start finds a journal left in any run folder under the results folder', async () => {
    const runFolder = join(dir, '20261126T000000Z-naked-mon-fault-x');
    const child = await harness(runFolder, sleep.pid!);
    const done = exited(child);
    child.kill('SIGKILL');
    await done;
    const log: string[] = [];
    expect(replayLeftJournals(dir, (l) => log.push(l)).map((r) => r.error)).toEqual([null]);
    expect(state(sleep.pid!)).not.toBe('T');
    expect(log.join('\n')).toMatch(/sigstop-one:test on sleep \(pid \d+\): SIGCONT pid \d+ done/);
  });
});
