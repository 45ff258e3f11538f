/**
 * Job directories live under <sandboxRoot>/p<pid>/ so that the ones left behind by a process
 * that died (node crash, SIGKILL) can be recognised and removed by the next grader started on
 * the machine; a live process's directories are never touched.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const ownDirName = () => `p${process.pid}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the per-process folders of processes that no longer exist; returns their names. */
export function sweepDeadOwners(sandboxRoot: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(sandboxRoot);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = /^p(\d+)$/.exec(name);
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    try {
      rmSync(join(sandboxRoot, name), { recursive: true, force: true, maxRetries: 3 });
      removed.push(name);
    } catch {
      /* another grader is sweeping it too */
    }
  }
  return removed;
}
