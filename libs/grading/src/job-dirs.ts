/**
 * Job directories live under <sandboxRoot>/p<pid>/ so that the ones left behind by a process
 * that died (node crash, SIGKILL) can be recognised and removed by the next grader started on
 * the machine; a live process's directories are never touched.
 */
import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const ownDirName = () => `p${process.pid}`;

/**
 * Creates the sandbox root (0700) or checks the one that exists: it must be a real folder owned
 * by the service user and writable by nobody else. A folder someone else made (in /tmp anyone can)
 * would let them swap job files under the grader, so it is refused, never adopted.
 */
export function prepareSandboxRoot(root: string): void {
  const uid = process.getuid?.();
  const created = mkdirSync(root, { recursive: true, mode: 0o700 }) !== undefined;
  const st = lstatSync(root);
  const refuse = (why: string) => {
    throw new Error(`sandbox root ${root} ${why}: refusing it (set SG_SANDBOX_ROOT to a folder of the service user, mode 0700)`);
  };
  if (st.isSymbolicLink() || !st.isDirectory()) refuse('is not a plain folder');
  if (uid !== undefined && st.uid !== uid) refuse(`is owned by uid ${st.uid}, not by the service user (uid ${uid})`);
  if (!created && (st.mode & 0o022) !== 0) refuse(`is writable by ${st.mode & 0o002 ? 'everyone' : 'its group'} (mode ${(st.mode & 0o7777).toString(8)})`);
}

/** The process exists (possibly as another user's). */
export function alive(pid: number): boolean {
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
