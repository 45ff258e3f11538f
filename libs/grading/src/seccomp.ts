/**
 * The sandboxes' system-call filter (docs/design.md, Untrusted input: no keyrings, no ptrace,
 * nothing of Docker's default deny list). libseccomp compiles it to a BPF program once per grader,
 * on the host (python/build_seccomp_filter.py, through Debian's python3-seccomp); the program is
 * bound read-only into every sandbox, where the grader loads it before grader.py runs and the
 * student sandbox hands it to bubblewrap.
 */
import { spawnSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { helperLibDir } from './assets';

/** The interpreter that has libseccomp's bindings: Debian's, from the python3-seccomp package. */
export const SECCOMP_BUILDER_PYTHON = '/usr/bin/python3';
export const SECCOMP_INSTALL_HINT = 'apt-get install python3-seccomp (or: bash infra/bin/servers install python3-seccomp)';

/** Writes the filter to `<dir>/seccomp.bpf` (atomically) and returns its path; throws with the fix when it cannot. */
export function buildSeccompFilter(dir: string, libDir = helperLibDir()): string {
  const target = join(dir, 'seccomp.bpf');
  const partial = `${target}.${process.pid}.part`;
  const r = spawnSync(SECCOMP_BUILDER_PYTHON, [join(libDir, 'build_seccomp_filter.py'), partial], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) {
    const why = r.error?.message ?? r.stderr.trim().split('\n').at(-1) ?? `exit ${r.status}`;
    throw new Error(`the sandboxes' system-call filter could not be built (${why}): ${SECCOMP_INSTALL_HINT}`);
  }
  renameSync(partial, target);
  return target;
}
