/**
 * The service side of the zygote protocol, against a stub zygote (a Node script speaking the
 * protocol of shellgrade_grader/zygote.py): a job's bytes end at its marker, a flood or a
 * timeout asks the zygote to kill the job, a zygote that dies fails its job and is replaced.
 * The real zygote's isolation is tested in zygote-isolation.int.ts and sandbox-safety.int.ts.
 */
import type { CommandSpec } from '../src/sandbox-command';
import { ZygotePool, ZygoteWorker } from '../src/zygote-pool';

const STUB = `
const fs = require('fs');
const rl = require('readline').createInterface({ input: process.stdin });
let current = null;
const end = (status) => {
  const marker = 'sg-end-' + Math.random().toString(16).slice(2);
  fs.writeSync(3, '\\0' + marker);
  fs.writeSync(4, '\\0' + marker);
  process.stdout.write(JSON.stringify({ job: current, status, marker }) + '\\n');
  current = null;
};
rl.on('line', (line) => {
  const req = JSON.parse(line);
  if (req.kill) { if (current) end(137); return; }
  current = req.job;
  if (req.job === 'hello') { fs.writeSync(3, 'graded ' + req.locale); fs.writeSync(4, 'a warning'); end(0); }
  if (req.job === 'flood') { const t = setInterval(() => { if (current) fs.writeSync(3, 'x'.repeat(4096)); else clearInterval(t); }, 1); }
  if (req.job === 'crash') process.exit(3);
  if (req.job === 'setup') { fs.writeSync(4, 'no such control group'); end(125); }
});
`;

const stubCommand = (): CommandSpec => ({ file: process.execPath, args: ['-e', STUB], env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd() });

const workers: ZygoteWorker[] = [];
const worker = (maxOutputBytes = 1024) => {
  const w = new ZygoteWorker('/nonexistent-inbox', stubCommand(), maxOutputBytes);
  workers.push(w);
  return w;
};
afterEach(() => workers.splice(0).forEach((w) => w.stop()));

describe('ZygoteWorker', () => {
  it('hands back the job output up to its marker, and serves the next job', async () => {
    const w = worker();
    for (const locale of ['fr', 'en']) {
      const o = await w.run({ name: 'hello', locale }, 10_000);
      expect(o).toMatchObject({ exitCode: 0, stdout: `graded ${locale}`, stderrTail: 'a warning', timedOut: false, outputOverflow: false });
    }
    expect(w.alive).toBe(true);
  });

  it('asks the zygote to kill a job that prints too much, and reports the overflow', async () => {
    const o = await worker(8192).run({ name: 'flood', locale: 'en' }, 10_000);
    expect(o).toMatchObject({ exitCode: 137, outputOverflow: true, stdout: '' });
  });

  it('asks the zygote to kill a job at the timeout, and the worker stays usable', async () => {
    const w = worker();
    const o = await w.run({ name: 'silent', locale: 'en' }, 200);
    expect(o).toMatchObject({ exitCode: 137, timedOut: true });
    expect((await w.run({ name: 'hello', locale: 'en' }, 10_000)).stdout).toBe('graded en');
  });

  it('fails the job of a zygote that dies, with the reason for the server log', async () => {
    const w = worker();
    const o = await w.run({ name: 'crash', locale: 'en' }, 10_000);
    expect(o.spawnError).toMatch(/grading sandbox stopped \(exit code 3\)/);
    expect(w.alive).toBe(false);
  });

  it('gives up a worker whose job could not be set up (what failed would fail again)', async () => {
    const w = worker();
    const o = await w.run({ name: 'setup', locale: 'en' }, 10_000);
    expect(o).toMatchObject({ exitCode: 125, stderrTail: 'no such control group' });
    expect(w.alive).toBe(false);
  });
});

describe('ZygotePool', () => {
  it('never gives one worker to two gradings acquiring at once, nor starts more than its size', async () => {
    const pool = new ZygotePool(2, { makeInbox: () => '/inbox', removeInbox: async () => undefined, command: stubCommand, maxOutputBytes: 1024 });
    const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
    expect(a).not.toBe(b);
    await expect(pool.acquire()).rejects.toThrow(/all 2 zygote workers are busy/);
    a.release();
    expect(await pool.acquire()).toBe(a);
    await pool.close();
  });

  it('replaces a dead worker at the next acquire and removes its inbox', async () => {
    const removed: string[] = [];
    let n = 0;
    const pool = new ZygotePool(1, {
      makeInbox: () => `/inbox-${++n}`,
      removeInbox: async (dir) => void removed.push(dir),
      command: stubCommand,
      maxOutputBytes: 1024,
    });
    const first = await pool.acquire();
    await first.run({ name: 'crash', locale: 'en' }, 10_000);
    first.release();
    const second = await pool.acquire();
    expect(second).not.toBe(first);
    expect((await second.run({ name: 'hello', locale: 'en' }, 10_000)).stdout).toBe('graded en');
    expect(removed).toEqual(['/inbox-1']);
    second.release();
    await pool.close();
    expect(removed).toEqual(['/inbox-1', '/inbox-2']);
  });
});
