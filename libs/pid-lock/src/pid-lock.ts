/**
 * Machine-wide exclusive locks: a lock directory holding its owner's pid and what it is doing
 * (mkdir is atomic). A lock whose owner died is taken over; re-entrant within the process that
 * holds it; handed over to a process it started (a console's harness outlives the request that
 * launched it). The launcher's variant and harness locks and the console's launch lock are these.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockHolder {
  pid: number;
  /** What the owner is doing ("bench findings --quick"). */
  what: string;
  since: string;
}

export interface LockWait {
  /** Give up after this long (0: do not wait). */
  waitMs: number;
  /** Told once, when the lock is found held (the holder as read then). */
  onWait?: (holder: LockHolder | null) => void;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class PidLock {
  readonly dir: string;
  /** Nesting depth of this process's holds (re-entrant). */
  private depth = 0;

  constructor(
    readonly name: string,
    root: string,
  ) {
    this.dir = join(root, `${name}.lock`);
  }

  /** The live holder, or null when free (a holder between mkdir and writing counts as alive for 5 s). */
  holder(): LockHolder | null {
    try {
      const h = this.readHolder();
      return alive(h.pid) ? h : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
      try {
        return Date.now() - statSync(this.dir).mtimeMs < 5_000 ? { pid: 0, what: 'starting', since: new Date().toISOString() } : null;
      } catch {
        return null;
      }
    }
  }

  /** Takes the lock (waiting up to `wait.waitMs`), runs `work`, releases it. */
  async with<T>(what: string, work: () => Promise<T>, wait: LockWait): Promise<T> {
    await this.acquire(what, wait);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  async acquire(what: string, wait: LockWait): Promise<void> {
    const deadline = Date.now() + wait.waitMs;
    let told = false;
    for (;;) {
      const holder = this.tryAcquire(what);
      if (!holder) return;
      if (Date.now() >= deadline) throw new LockBusyError(this.name, holder, wait.waitMs);
      if (!told) wait.onWait?.(holder);
      told = true;
      await sleep(500);
    }
  }

  /** Takes the lock without waiting: null once held by this process, else the live holder. */
  tryAcquire(what: string): LockHolder | null {
    if (this.depth > 0) {
      this.depth++;
      return null;
    }
    mkdirSync(join(this.dir, '..'), { recursive: true });
    for (;;) {
      try {
        mkdirSync(this.dir);
        this.writeHolder(process.pid, what);
        this.depth = 1;
        return null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = this.holder();
      if (holder) return holder;
      // Its holder died: taken over.
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  /**
   * A process this one started holds the lock from now on (it may outlive this one): its pid in
   * the holder file. This process no longer holds it; `releaseFor` removes it.
   */
  handOver(pid: number): void {
    const h = this.holder();
    if (this.depth === 0 || !h) throw new Error(`the ${this.name} lock is not held by this process: nothing to hand over`);
    this.writeHolder(pid, h.what, h.since);
    this.depth = 0;
  }

  release(): void {
    if (this.depth === 0) return;
    if (--this.depth === 0) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Removes the lock if it is still held for `what` (by this process or the one it handed over to); another's is left. */
  releaseFor(what: string): void {
    try {
      if (this.readHolder().what !== what) return;
    } catch {
      // nothing readable: ours to remove
    }
    this.depth = 0;
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The holder file as written, alive or not (throws when there is none or it is unreadable). */
  private readHolder(): LockHolder {
    return JSON.parse(readFileSync(join(this.dir, 'holder.json'), 'utf8')) as LockHolder;
  }

  private writeHolder(pid: number, what: string, since = new Date().toISOString()): void {
    writeFileSync(join(this.dir, 'holder.json'), JSON.stringify({ pid, what, since } satisfies LockHolder));
  }
}

export class LockBusyError extends Error {
  constructor(
    readonly lock: string,
    readonly holder: LockHolder,
    waitedMs: number,
  ) {
    super(`the ${lock} lock is held by pid ${holder.pid} (${holder.what}, since ${holder.since})${waitedMs ? `; gave up after ${Math.round(waitedMs / 1000)} s` : ''}`);
  }
}
