/**
 * Runs the grader baseline and writes results/grader-baseline/<timestamp>.json and latest.json.
 *   node run/grader-baseline/dist/benchmarks/grader-baseline/grader-baseline.js [--duration-s 2] [--out <dir>]
 * (benchmarks/grader-baseline/run.sh builds and calls this.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { archiveBoundsOf, graderSchema, httpSchema, loadConnections } from '@shellgrade/variant';
import { gradingLibDir } from '@shellgrade/grading';
import { formatBaselineTable, runGraderBaseline } from './grader-baseline-runner';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const cfg = loadConnections();
  const { timeoutMs, limits, cgroups, maxOutputBytes, archive } = graderSchema.parse({});
  const { maxArchiveBytes } = httpSchema.parse({});
  const durationS = Number(arg('--duration-s') ?? 2);
  if (!(durationS > 0 && durationS <= 60)) throw new Error('--duration-s must be in (0, 60]');
  // Same results folder as benchmarks/ (SG_RESULTS_DIR or <repo>/results), which reads latest.json.
  const resultsDir = process.env.SG_RESULTS_DIR ?? join(gradingLibDir(), '..', '..', 'results');
  const outDir = resolve(arg('--out') ?? join(resultsDir, 'grader-baseline'));
  const sandboxRoot = join(cfg.SG_SANDBOX_ROOT, 'baseline');
  console.log(`grader baseline: paper-scripts, ${durationS} s per row, sandbox ${sandboxRoot}`);
  const report = await runGraderBaseline({
    base: { python: cfg.SG_PYTHON, sandboxRoot, timeoutMs, limits, cgroups, maxOutputBytes, archive: archiveBoundsOf({ http: { maxArchiveBytes }, grader: { archive } }) },
    durationPerRowMs: durationS * 1000,
    onRow: (r) => console.log(`  ${r.mode} x${r.concurrency}: ${r.gradingsPerS} gradings/s, ${r.msPerGrading} ms/grading`),
  });
  mkdirSync(outDir, { recursive: true });
  const body = JSON.stringify(report, null, 2) + '\n';
  const file = join(outDir, `${report.createdAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, body);
  writeFileSync(join(outDir, 'latest.json'), body);
  console.log('\n' + formatBaselineTable(report.rows));
  console.log(`\nwritten ${file} and latest.json`);
  if (report.rows.some((r) => r.failures > 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
