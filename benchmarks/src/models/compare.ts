// Prediction next to measurement, with the relative error (predicted − measured) / measured.
import type { RequestClass } from './demands';
import type { Measured } from './measured';
import type { Prediction } from './predict';

export interface ComparisonRow {
  metric: string;
  predicted: number | null;
  measured: number | null;
  /** null when either side is missing (a saturated prediction has no response time) or measured is 0. */
  relError: number | null;
}

export interface Comparison {
  schema: 'shellgrade.model-compare/1';
  variant: string;
  runFolder: string;
  demandsFrom: string;
  arrivalRate: number;
  saturationRate: number;
  bottleneck: string;
  unmeasured: string[];
  rows: ComparisonRow[];
}

export function relError(predicted: number | null, measured: number | null): number | null {
  if (predicted === null || measured === null || measured === 0) return null;
  return (predicted - measured) / measured;
}

const row = (metric: string, predicted: number | null, measured: number | null): ComparisonRow => ({
  metric,
  predicted,
  measured,
  relError: relError(predicted, measured),
});

/**
 * `atPeak`: the prediction at the profile's peak (throughput and response times of the hold
 * stage); `atMean`: at the run's mean iteration rate (CPU utilisation over the whole run).
 */
export function compare(runFolder: string, atPeak: Prediction, atMean: Prediction, measured: Measured): Comparison {
  const rows: ComparisonRow[] = [
    row('throughput sps/s (hold)', atPeak.throughput.spsPerS, measured.spsPerS),
    row('throughput requests/s (hold)', atPeak.throughput.requestsPerS, measured.requestsPerS),
  ];
  for (const c of ['session', 'sps'] as RequestClass[]) {
    rows.push(row(`response time ${c} s (hold, per iteration)`, atPeak.responseTimeS[c], measured.responseTimeS[c]));
  }
  // A role's grader children are in its process group's cgroup: one CPU row per measured group.
  const cpuByGroup = new Map<string, number>();
  for (const s of atMean.stations) {
    const group = s.name.replace(/-grader$/, '');
    cpuByGroup.set(group, (cpuByGroup.get(group) ?? 0) + s.cpuCores);
  }
  for (const [group, cores] of cpuByGroup) rows.push(row(`cpu cores ${group} (run mean)`, cores, measured.cpuCoresByStation[group] ?? null));
  rows.push(row('cpu cores machine (run mean)', atMean.cpu.utilization * atMean.cpu.cores, measured.cpuCoresByStation.cpu ?? null));
  return {
    schema: 'shellgrade.model-compare/1',
    variant: atPeak.variant,
    runFolder,
    demandsFrom: atPeak.demandsFrom,
    arrivalRate: atPeak.arrivalRate,
    saturationRate: atPeak.saturationRate,
    bottleneck: atPeak.bottleneck,
    unmeasured: atPeak.unmeasured,
    rows,
  };
}

const fmt = (v: number | null, digits = 3) => (v === null ? 'n/a' : v.toFixed(digits));

export function comparisonMarkdown(c: Comparison): string {
  const lines = [
    `### ${c.variant}: model vs ${c.runFolder}`,
    '',
    `Demands from ${c.demandsFrom}; offered ${c.arrivalRate} it/s; predicted saturation ${c.saturationRate.toFixed(2)} it/s at ${c.bottleneck}.`,
    ...(c.unmeasured.length ? [`Left out (no demand measured in that run): ${c.unmeasured.join(', ')}.`] : []),
    '',
    '| metric | predicted | measured | rel. error |',
    '|---|---:|---:|---:|',
    ...c.rows.map((r) => `| ${r.metric} | ${fmt(r.predicted)} | ${fmt(r.measured)} | ${r.relError === null ? 'n/a' : `${(r.relError * 100).toFixed(1)} %`} |`),
  ];
  return lines.join('\n') + '\n';
}
