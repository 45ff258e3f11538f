/**
 * One launcher at a time changes the running variant: an exclusive lock directory holding the
 * owner's pid (mkdir is atomic). A lock whose owner died is taken over.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DIR } from '../paths';
import { sleep } from './health';

const LOCK_DIR = join(RUN_DIR, 'locks', 'variant.lock');

function ownerAlive(): boolean {
  try {
    const pid = Number(readFileSync(join(LOCK_DIR, 'pid'), 'utf8'));
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but not ours; ENOENT: owner is between mkdir and writing its pid.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPERM') return true;
    if (code !== 'ENOENT') return false;
    try {
      return Date.now() - statSync(LOCK_DIR).mtimeMs < 5_000;
    } catch {
      return false;
    }
  }
}

export async function withVariantLock<T>(work: () => Promise<T>, waitMs = 15 * 60_000): Promise<T> {
  mkdirSync(join(RUN_DIR, 'locks'), { recursive: true });
  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      writeFileSync(join(LOCK_DIR, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!ownerAlive()) {
        await sleep(200);
        if (!ownerAlive()) rmSync(LOCK_DIR, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another launcher holds ${LOCK_DIR}; gave up after ${waitMs / 1000} s`);
      if (!announced) process.stderr.write('[variant] waiting for another launcher to finish...\n');
      announced = true;
      await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}
