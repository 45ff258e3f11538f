/**
 * One console launch at a time on this machine: an exclusive lock directory holding the pid of
 * the harness it started (mkdir is atomic), as the launcher's own variant lock does. The lock
 * outlives the server that took it (a restarted entry point still sees the run going on) and
 * is taken over once its harness has died.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LaunchLockHolder {
  pid: number;
  launch: string;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class LaunchLock {
  private readonly dir: string;
  constructor(consoleDir: string) {
    this.dir = join(consoleDir, 'launch.lock');
  }

  /** The live holder, or null (a dead holder's lock is removed). */
  holder(): LaunchLockHolder | null {
    try {
      const h = JSON.parse(readFileSync(join(this.dir, 'holder.json'), 'utf8')) as LaunchLockHolder;
      if (alive(h.pid)) return h;
    } catch {
      // no holder file: free, or a taker between mkdir and its write (it holds the lock only once written)
    }
    return null;
  }

  /** Takes the lock for `launch` (held by this process until `handOver`); false when a live launch holds it. */
  take(launch: string): boolean {
    mkdirSync(join(this.dir, '..'), { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        mkdirSync(this.dir);
        this.write({ pid: process.pid, launch });
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (this.holder()) return false;
        rmSync(this.dir, { recursive: true, force: true });
      }
    }
    return false;
  }

  /** The harness child holds it from now on (it outlives this server if need be). */
  handOver(launch: string, pid: number): void {
    this.write({ pid, launch });
  }

  release(launch: string): void {
    try {
      const h = JSON.parse(readFileSync(join(this.dir, 'holder.json'), 'utf8')) as LaunchLockHolder;
      if (h.launch !== launch) return;
    } catch {
      // nothing readable: ours to remove
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private write(h: LaunchLockHolder): void {
    writeFileSync(join(this.dir, 'holder.json'), JSON.stringify(h));
  }
}
