/**
 * The student sandbox's launcher (native/sandbox-exec.c): a small C program. The grading job starts
 * it once as the student supervisor (`--supervise`, native/student-supervisor.c), which starts it
 * again as each student script's sandbox (a Python supervisor was a second copy of the
 * job's interpreter, and a Python fork per script cost ~5 ms of page faults). Compiled once per
 * source version with the host's C compiler into the grader's own sandbox root (root's, 0700: no
 * one else can plant a binary there), then bound read-only into every root sandbox, like the
 * system-call filter.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { gradingLibDir } from './assets';

export const C_COMPILER = '/usr/bin/cc';
export const C_COMPILER_INSTALL_HINT = 'apt-get install gcc (or: bash infra/bin/servers install gcc)';

const nativeFile = (name: string): string => join(gradingLibDir(), 'native', name);

/** The program's sources: its entry (launcher-main.c), the student sandbox, and the supervisor mode that starts one per script (student-supervisor.c). */
export function sandboxLauncherSources(): string[] {
  return ['launcher-main.c', 'sandbox-exec.c', 'student-supervisor.c'].map(nativeFile);
}

/** The header the sources share (the two modes' entry points): part of the version, not compiled on its own. */
export function sandboxLauncherHeaders(): string[] {
  return ['launcher.h'].map(nativeFile);
}

/** The launcher's path, compiled from `sources` into `<sandboxRoot>/sandbox-exec-<hash>` unless already there; throws with the fix when it cannot. */
export function buildSandboxLauncher(sandboxRoot: string, sources = sandboxLauncherSources(), headers = sandboxLauncherHeaders()): string {
  const hash = createHash('sha256');
  for (const file of [...sources, ...headers]) hash.update(readFileSync(file)).update('\0');
  const version = hash.digest('hex').slice(0, 16);
  const target = join(sandboxRoot, `sandbox-exec-${version}`);
  if (existsSync(target)) return target;
  const partial = `${target}.${process.pid}.part`;
  // Static: it is executed once per grading, and the dynamic loader cost each exec ~0.2 ms more.
  const r = spawnSync(C_COMPILER, ['-O2', '-static', '-Wall', '-Wextra', '-Werror', '-o', partial, ...sources], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) {
    const why = r.error?.message ?? r.stderr.trim().split('\n').slice(-3).join(' ') ?? `exit ${r.status}`;
    throw new Error(`the student sandbox's launcher could not be compiled (${why}): ${C_COMPILER_INSTALL_HINT}`);
  }
  renameSync(partial, target); // atomic: a concurrent service finds the whole binary or none
  return target;
}
