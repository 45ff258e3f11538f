/**
 * `bench grader baseline`: gradings per second of the paper-equivalent exercise with no HTTP,
 * database or queue — the physical limit every variant's SPS throughput is compared with. Writes
 * <out>/<timestamp>.json and latest.json (a `bench run` copies latest.json into its run folder).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatBaselineTable, runGraderBaseline, type BaselineReport } from './baseline-runner';
import { graderBase, graderResultsDir, rowSeconds } from './grader-base';

export async function graderBaseline(o: { durationS: number; out?: string }): Promise<BaselineReport> {
  const durationS = rowSeconds(o.durationS);
  const outDir = resolve(o.out ?? join(graderResultsDir(), 'grader-baseline'));
  const base = graderBase('baseline');
  console.log(`grader baseline: paper-scripts, ${durationS} s per row, sandbox ${base.sandboxRoot}`);
  const report = await runGraderBaseline({
    base,
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
  return report;
}
