/** Machine-wide locks: one holder, re-entrant in it, another process waits or is refused by name, a dead holder is taken over, a hold handed over to a child outlives its taker. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockBusyError, PidLock, type LockHolder } from './pid-lock';

describe('PidLock', () => {
  let root: string;
  let other: ChildProcess | undefined;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sg-lock-'))));
  afterEach(() => {
    other?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  /** The lock as another live process would hold it. */
  const heldBy = (lock: PidLock, pid: number, what = 'bench findings (full)'): void => {
    mkdirSync(lock.dir, { recursive: true });
    writeFileSync(join(lock.dir, 'holder.json'), JSON.stringify({ pid, what, since: '2026-11-27T19:00:00.000Z' } satisfies LockHolder));
  };
  const liveProcess = (): number => {
    other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return other.pid!;
  };

  it('holds for its owner, nests within it, and is free once the outermost hold ends', async () => {
    const lock = new PidLock('harness', root);
    await lock.with('outer', async () => {
      expect(lock.holder()).toMatchObject({ pid: process.pid, what: 'outer' });
      await lock.with('inner', async () => expect(lock.holder()?.what).toBe('outer'), { waitMs: 0 });
      expect(lock.holder()?.what).toBe('outer');
    }, { waitMs: 0 });
    expect(lock.holder()).toBeNull();
    expect(existsSync(lock.dir)).toBe(false);
  });

  it('refuses at once when another live process holds it and no wait is allowed, naming what runs', async () => {
    const lock = new PidLock('harness', root);
    const pid = liveProcess();
    heldBy(lock, pid);
    const seen: (LockHolder | null)[] = [];
    const work = jest.fn(async () => undefined);
    const refused = lock.with('bench run naked-mon (small)', work, { waitMs: 0, onWait: (h) => seen.push(h) }).catch((e: unknown) => e);
    const err = (await refused) as LockBusyError;
    expect(err).toBeInstanceOf(LockBusyError);
    expect(err.message).toBe(`the harness lock is held by pid ${pid} (bench findings (full), since 2026-11-27T19:00:00.000Z)`);
    expect(work).not.toHaveBeenCalled();
    expect(lock.holder()?.pid).toBe(pid);
  });

  it('waits its turn: told once who holds it, then runs when the holder is gone', async () => {
    const lock = new PidLock('harness', root);
    const pid = liveProcess();
    heldBy(lock, pid);
    const told: (LockHolder | null)[] = [];
    let ran = false;
    const queued = lock.with('bench run msa-1-2 (small)', async () => void (ran = true), {
      waitMs: 60_000,
      onWait: (h) => {
        told.push(h);
        other!.kill('SIGKILL'); // the run going on ends
      },
    });
    await queued;
    expect(told).toEqual([expect.objectContaining({ pid, what: 'bench findings (full)' })]);
    expect(ran).toBe(true);
    expect(lock.holder()).toBeNull();
  });

  it('takes over a lock whose holder died without releasing it', async () => {
    const lock = new PidLock('harness', root);
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.on('exit', resolve));
    heldBy(lock, dead.pid!);
    await lock.with('after a crash', async () => expect(lock.holder()?.what).toBe('after a crash'), { waitMs: 0 });
  });

  it('hands over to a process it started: held while that one lives, released only for the launch it names', () => {
    const lock = new PidLock('launch', root);
    expect(lock.tryAcquire('run-a')).toBeNull();
    const child = liveProcess();
    lock.handOver(child);
    expect(lock.holder()).toMatchObject({ pid: child, what: 'run-a' });
    // This process no longer holds it: a second launch from it is refused, naming the first.
    expect(lock.tryAcquire('run-b')).toMatchObject({ pid: child, what: 'run-a' });
    lock.releaseFor('run-b');
    expect(lock.holder()?.what).toBe('run-a');
    lock.releaseFor('run-a');
    expect(lock.holder()).toBeNull();
  });

  it('refuses to hand over a lock it does not hold', () => {
    expect(() => new PidLock('launch', root).handOver(process.pid)).toThrow('the launch lock is not held by this process: nothing to hand over');
  });
});
