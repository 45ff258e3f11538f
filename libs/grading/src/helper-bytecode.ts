/**
 * The helper library's bytecode, brought up to date once per grader. Every grading
 * starts a Python that imports shellgrade_grader from a read-only bind with
 * PYTHONDONTWRITEBYTECODE: a module whose __pycache__ file is missing or older than its source
 * is compiled again by every grading and never saved — ~1 ms of CPU per module per grading, ~15 ms
 * for the library. Only the catalog build (catalog/build.py) wrote the bytecode, and only when the
 * catalog's own sources changed, so a checkout or an edit of the library left it stale for good:
 * a change to the supervisor's modules once cost async mode ~12 ms per grading that way.
 * Forced (-f): compileall judges a .pyc by the source's mtime alone, the import by mtime and size,
 * so a module edited within the second it was compiled looks fresh to the one and stale to the
 * other. The whole package recompiles in ~50 ms, once per grader; each file is replaced atomically,
 * so replicas starting together do not see a half-written one.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The package the graders import; the library's tests and build scripts are not imported in the sandbox. */
export const HELPER_PACKAGE = 'shellgrade_grader';

/**
 * Compiles `<libDir>/shellgrade_grader` with the graders' own interpreter (its
 * magic number). Never throws: a library that cannot be written (read-only install) still grades,
 * only slower; the reason is returned for the caller to report.
 */
export function refreshHelperBytecode(python: string, libDir: string): string | undefined {
  const r = spawnSync(python, ['-S', '-m', 'compileall', '-f', '-q', join(libDir, HELPER_PACKAGE)], { encoding: 'utf8', timeout: 30_000 });
  if (r.status === 0) return undefined;
  const why = r.error?.message ?? (r.stdout + r.stderr).trim().split('\n').slice(-3).join(' ');
  return `the helper library's bytecode could not be refreshed in ${libDir} (${why || `exit ${r.status}`}): every grading compiles the stale modules again`;
}
