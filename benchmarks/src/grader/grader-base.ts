// What every grader-only loop grades with: the spec's default grader settings (timeout, limits,
// control groups, output and archive bounds) and this machine's Python and sandbox root, so the
// loops measure the grader the services run, minus HTTP, database and queue.
import { join } from 'node:path';
import { archiveBoundsOf, graderSchema, httpSchema, loadConnections } from '@shellgrade/variant';
import { gradingLibDir, type ExecMode } from '@shellgrade/grading';
import type { BaselineOptions } from './baseline-runner';

export const EXEC_MODES: readonly ExecMode[] = ['async', 'blocking', 'pool', 'zygote'];

/** The grader's settings of every row; each loop gets a sandbox folder of its own (`sandboxName`). */
export function graderBase(sandboxName: string): BaselineOptions['base'] {
  const cfg = loadConnections();
  const { timeoutMs, limits, cgroups, maxOutputBytes, archive } = graderSchema.parse({});
  const { maxArchiveBytes } = httpSchema.parse({});
  return { python: cfg.SG_PYTHON, sandboxRoot: join(cfg.SG_SANDBOX_ROOT, sandboxName), timeoutMs, limits, cgroups, maxOutputBytes, archive: archiveBoundsOf({ http: { maxArchiveBytes }, grader: { archive } }) };
}

/** Exec modes named on the command line, each one the grader knows. */
export function execModes(modes: string[]): ExecMode[] {
  const unknown = modes.filter((m) => !(EXEC_MODES as readonly string[]).includes(m));
  if (unknown.length || modes.length === 0) throw new Error(`--modes takes exec modes, comma-separated (${EXEC_MODES.join(', ')}); got ${modes.join(',') || 'none'}`);
  return modes as ExecMode[];
}

/** A grader-only loop's seconds per row: long enough to count, short enough not to pass for a load test. */
export function rowSeconds(durationS: number): number {
  if (!(durationS > 0 && durationS <= 60)) throw new Error('--duration-s must be in (0, 60]');
  return durationS;
}

/** The results folder the services' benchmarks use too (SG_RESULTS_DIR or <repo>/results). */
export function graderResultsDir(): string {
  return process.env.SG_RESULTS_DIR ?? join(gradingLibDir(), '..', '..', 'results');
}
