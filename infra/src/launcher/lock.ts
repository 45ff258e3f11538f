/**
 * Machine-wide exclusive locks: a lock directory holding its owner's pid and what it is doing
 * (mkdir is atomic). A lock whose owner died is taken over. Two are used:
 * - `variant`: one launcher at a time changes the running variant;
 * - `harness`: one measurement at a time on this machine — a second benchmark, from a shell or
 *   from the console, would load the same two cores and spoil both (issue 33: runs queue behind
 *   the harness's lock). Held across a whole command (a findings run, a calibration), re-entrant
 *   within the process that holds it.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIR } from '../paths';
import { sleep } from './health';

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
    root = join(RUN_DIR, 'locks'),
  ) {
    this.dir = join(root, `${name}.lock`);
  }

  /** The live holder, or null when free (a holder between mkdir and writing counts as alive for 5 s). */
  holder(): LockHolder | null {
    try {
      const h = JSON.parse(readFileSync(join(this.dir, 'holder.json'), 'utf8')) as LockHolder;
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
    if (this.depth > 0) {
      this.depth++;
      return;
    }
    mkdirSync(join(this.dir, '..'), { recursive: true });
    const deadline = Date.now() + wait.waitMs;
    let told = false;
    for (;;) {
      try {
        mkdirSync(this.dir);
        writeFileSync(join(this.dir, 'holder.json'), JSON.stringify({ pid: process.pid, what, since: new Date().toISOString() } satisfies LockHolder));
        this.depth = 1;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = this.holder();
      if (!holder) {
        rmSync(this.dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() >= deadline) throw new LockBusyError(this.name, holder, wait.waitMs);
      if (!told) wait.onWait?.(holder);
      told = true;
      await sleep(500);
    }
  }

  release(): void {
    if (this.depth === 0) return;
    if (--this.depth === 0) rmSync(this.dir, { recursive: true, force: true });
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

const VARIANT_LOCK = new PidLock('variant');

export function withVariantLock<T>(work: () => Promise<T>, waitMs = 15 * 60_000): Promise<T> {
  return VARIANT_LOCK.with(`variant launcher (pid ${process.pid})`, work, { waitMs, onWait: () => process.stderr.write('[variant] waiting for another launcher to finish...\n') });
}

/**
 * The one measurement at a time on this machine: in the machine's temporary directory, not the
 * repository's run/, so two clones (a CI check beside a working copy) see each other.
 */
export const HARNESS_LOCK = new PidLock('harness', join(tmpdir(), 'shellgrade-locks'));
