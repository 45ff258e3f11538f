// What undoes an injected fault, as data: a journal line that a later process can still perform
// (journal.ts) and that a signal or exit handler can perform synchronously (guard.ts).
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { repoRoot } from '../paths';
import { removeToxic } from './toxiproxy';

export type UndoAction =
  /** SIGCONT to a stopped process (SIGSTOP fault). */
  | { kind: 'continue'; pid: number }
  /** `infra/bin/servers up <names>`: a no-op for a server already up and healthy. */
  | { kind: 'servers-up'; names: string[] }
  /**
   * After a kill: wait until pm2 has the killed replicas online again under new pids; if they are
   * still not after the bound, `variant up <target>`. Nothing to do once another variant runs.
   * (A plain `variant up` while a replica is restarting would restart the whole variant.)
   */
  | { kind: 'await-restart'; variant: string; target: string; names: string[]; killedPids: number[] }
  /** SIGKILL of a helper the fault started (a fault proxy). */
  | { kind: 'kill'; pid: number }
  /** SIGKILL of every process carrying SG_FAULT_TAG=<tag> in its environment (helpers a fault started, their children too). */
  | { kind: 'kill-tagged'; tag: string }
  /** The fault proxy's toxic removed (toxiproxy API; already gone is done). */
  | { kind: 'toxic-remove'; api: string; proxy: string; toxic: string }
  /** `variant up <target>`: the variant as its preset says (a hop routed through a proxy, unrouted). */
  | { kind: 'variant-up'; target: string };

export function describeUndo(a: UndoAction): string {
  switch (a.kind) {
    case 'continue':
      return `SIGCONT pid ${a.pid}`;
    case 'servers-up':
      return `servers up ${a.names.join(' ')}`;
    case 'await-restart':
      return `wait for pm2 to restart ${a.names.join(', ')} (else variant up ${a.target})`;
    case 'kill':
      return `SIGKILL pid ${a.pid}`;
    case 'kill-tagged':
      return `SIGKILL of the processes tagged ${a.tag}`;
    case 'toxic-remove':
      return `remove toxic ${a.toxic} of proxy ${a.proxy}`;
    case 'variant-up':
      return `variant up ${a.target}`;
  }
}

/** The environment variable that marks a fault's helpers (the undo finds them by it, even after a crash of the harness). */
export const FAULT_TAG_ENV = 'SG_FAULT_TAG';

const readOr = (file: string) => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return '';
  }
};

/**
 * Pids whose environment holds SG_FAULT_TAG=<tag>, with all their descendants (stress-ng's workers
 * overwrite their environment with their process title: they are found as children).
 */
export function taggedPids(tag: string, proc = '/proc'): number[] {
  const marker = `${FAULT_TAG_ENV}=${tag}\0`;
  const pids = readdirSync(proc).filter((d) => /^\d+$/.test(d)).map(Number);
  const parentOf = new Map(pids.map((p) => {
    const stat = readOr(join(proc, String(p), 'stat'));
    return [p, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])];
  }));
  const found = new Set(pids.filter((p) => `${readOr(join(proc, String(p), 'environ'))}\0`.includes(marker)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, parent] of parentOf) {
      if (found.has(p) || !found.has(parent)) continue;
      found.add(p);
      grew = true;
    }
  }
  return [...found];
}

/** A process that is already gone needs no signal: ESRCH is success. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

function runSync(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: repoRoot(), stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}`);
}

/** Performs one undo synchronously (usable from 'exit' and signal handlers). Throws when it failed. */
export function performUndo(a: UndoAction): void {
  switch (a.kind) {
    case 'continue':
      return signal(a.pid, 'SIGCONT');
    case 'kill':
      return signal(a.pid, 'SIGKILL');
    case 'kill-tagged':
      return taggedPids(a.tag).forEach((pid) => signal(pid, 'SIGKILL'));
    case 'servers-up':
      return runSync('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'up', ...a.names]);
    case 'toxic-remove':
      return runSync(process.execPath, ['-e', toxicRemoveScript(a)]);
    case 'variant-up':
      return runSync('npm', ['run', '--silent', 'variant', '--', 'up', a.target]);
    case 'await-restart': {
      for (let i = 0; i < RESTART_POLLS; i++) {
        const r = spawnSync(process.execPath, launcherStatus(), { cwd: repoRoot(), encoding: 'utf8' });
        if (restarted(a, r.stdout ?? '') !== 'waiting') return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RESTART_POLL_MS);
      }
      return runSync('npm', ['run', '--silent', 'variant', '--', 'up', a.target]);
    }
  }
}

/** Polls of the launcher's status while pm2 restarts a killed replica (a Nest service boots in a few seconds). */
const RESTART_POLLS = 90;
const RESTART_POLL_MS = 1000;

/** The DELETE of the toxic in a child node (a signal handler cannot await a fetch). */
const toxicRemoveScript = (a: Extract<UndoAction, { kind: 'toxic-remove' }>) =>
  `fetch(${JSON.stringify(`${a.api}/proxies/${a.proxy}/toxics/${a.toxic}`)}, { method: 'DELETE' }).then((r) => process.exit(r.ok || r.status === 404 ? 0 : 1), () => process.exit(1))`;

const launcherStatus = () => [join(repoRoot(), 'dist', 'infra', 'src', 'launcher', 'cli.js'), 'status', '--json'];

interface StatusLine {
  variant?: string | null;
  processes?: { name: string; pid?: number | null; status?: string }[];
}

/** From `variant status --json`: the killed replicas back (online, new pid), another variant running, or still waiting. */
export function restarted(a: Extract<UndoAction, { kind: 'await-restart' }>, stdout: string): 'back' | 'not-ours' | 'waiting' {
  let s: StatusLine;
  try {
    s = JSON.parse(stdout.slice(stdout.indexOf('{'))) as StatusLine;
  } catch {
    return 'waiting';
  }
  if (s.variant !== a.variant) return 'not-ours';
  const back = a.names.every((n) => s.processes?.some((p) => p.name === n && p.status === 'online' && p.pid && !a.killedPids.includes(p.pid)));
  return back ? 'back' : 'waiting';
}

/** The same undo without blocking the event loop (the harness's sampler keeps sampling meanwhile). */
export async function performUndoAsync(a: UndoAction): Promise<void> {
  const exec = promisify(execFile);
  switch (a.kind) {
    case 'continue':
    case 'kill':
    case 'kill-tagged':
      return performUndo(a);
    case 'toxic-remove':
      return removeToxic(a.proxy, a.toxic, a.api);
    case 'variant-up':
      await exec('npm', ['run', '--silent', 'variant', '--', 'up', a.target], { cwd: repoRoot() });
      return;
    case 'servers-up':
      await exec('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'up', ...a.names], { cwd: repoRoot() });
      return;
    case 'await-restart':
      for (let i = 0; i < RESTART_POLLS; i++) {
        const r = await exec(process.execPath, launcherStatus(), { cwd: repoRoot() }).catch(() => ({ stdout: '' }));
        if (restarted(a, r.stdout) !== 'waiting') return;
        await new Promise((res) => setTimeout(res, RESTART_POLL_MS));
      }
      await exec('npm', ['run', '--silent', 'variant', '--', 'up', a.target], { cwd: repoRoot() });
  }
}
