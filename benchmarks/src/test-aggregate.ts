// The aggregate of one test (aggregated.json): means over the VALID runs only, every run listed
// with its verdict and reasons — an INVALID run is shown, never averaged.
import { aggregateRuns } from './aggregate';
import type { Aggregated, RunLine, RunRecord, TestMeta } from './types';

/** The line aggregated.json keeps per run (hold stage): valid or not, and why. */
export function runLineOf(r: RunRecord): RunLine {
  const hold = r.paper.stages?.hold ?? r.paper;
  return {
    run: r.run,
    valid: r.valid,
    reasons: r.reasons,
    efr_paper: hold.efr_paper,
    ko_rate: hold.ko_rate,
    crashes: r.crashes.map((c) => `${c.process} at ${c.at}`),
    audit: r.audit?.summary ?? null,
    dashboard: r.dashboard,
  };
}

export function aggregateTest(meta: TestMeta, records: RunRecord[], runsAsked: number): Aggregated {
  const valid = records.filter((r) => r.valid);
  return {
    schema: 'shellgrade.bench-aggregated/2',
    meta,
    runsAsked,
    runs: records.length,
    validRuns: valid.length,
    valid: valid.length === runsAsked,
    invalidReasons: records.flatMap((r) => r.reasons.map((reason) => `run ${r.run}: ${reason}`)),
    runLines: records.map(runLineOf),
    paper: aggregateRuns(valid.map((r) => r.paper)),
    resources: aggregateRuns(valid.map((r) => ({ ...r.resources, ...r.derived }))),
  };
}
