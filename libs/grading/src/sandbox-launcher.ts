/**
 * The student sandbox's launcher (native/sandbox-exec.c): a small C program the grading
 * supervisor starts with posix_spawn for each student script (issue 31: a Python fork of the
 * supervisor per script cost ~5 ms of page faults and interpreter work). Compiled once per
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

/** The launcher's path, compiled from `source` into `<sandboxRoot>/sandbox-exec-<hash>` unless already there; throws with the fix when it cannot. */
export function buildSandboxLauncher(
  sandboxRoot: string,
  source = join(gradingLibDir(), 'native', 'sandbox-exec.c'),
): string {
  const text = readFileSync(source);
  const version = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const target = join(sandboxRoot, `sandbox-exec-${version}`);
  if (existsSync(target)) return target;
  const partial = `${target}.${process.pid}.part`;
  const r = spawnSync(C_COMPILER, ['-O2', '-Wall', '-Wextra', '-Werror', '-o', partial, source], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) {
    const why = r.error?.message ?? r.stderr.trim().split('\n').slice(-3).join(' ') ?? `exit ${r.status}`;
    throw new Error(`the student sandbox's launcher could not be compiled (${why}): ${C_COMPILER_INSTALL_HINT}`);
  }
  renameSync(partial, target); // atomic: a concurrent service finds the whole binary or none
  return target;
}
