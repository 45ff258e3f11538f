// The figures a finding is judged on, per VALID run (hold stage, like the tables). Energy is the
// RAPL measurement when the machine has counters, else the harness's linear CPU-utilisation
// ESTIMATE (benchmarks/METRICS.md) — labelled as such wherever it is shown.
import { runMetrics } from '../compare/run-metrics';
import type { RunRecord } from '../types';
import type { FindingMetric } from './claims';

export interface MetricInfo {
  label: string;
  unit: string;
}

export const METRICS: Record<FindingMetric, MetricInfo> = {
  efr: { label: 'EFR (paper, (N − OK)/N)', unit: '' },
  p95: { label: 'p95 of OK responses', unit: 'ms' },
  spsP95: { label: 'SPS p95', unit: 'ms' },
  throughput: { label: 'throughput (OK/s)', unit: '/s' },
  apdex: { label: 'Apdex (Gatling report: T 1.5 s, KO frustrated)', unit: 'index' },
  cpuPerIteration: { label: 'variant CPU per iteration', unit: 's' },
  memMiB: { label: 'variant memory (mean PSS)', unit: 'MiB' },
  energyWh: { label: 'energy per run', unit: 'Wh' },
};

function of(r: RunRecord, metric: FindingMetric): number | null {
  const hold = r.paper.stages?.hold ?? r.paper;
  switch (metric) {
    case 'efr':
      return hold.efr_paper;
    case 'apdex':
      return hold.apdex;
    case 'energyWh':
      return r.derived.energyWh ?? r.derived.energyEstimate?.wh ?? null;
    default: {
      const key = { p95: 'all/p95', spsP95: 'sps/p95', throughput: 'all/throughput', cpuPerIteration: 'run/cpuSPerIteration', memMiB: 'run/memMiB' }[metric];
      return runMetrics(r)[key] ?? null;
    }
  }
}

/** A difference's number as the reports print it: EFR shares in points, an index to 3 decimals, else 3 significant digits (whole from 100). */
export function differenceNumber(v: number, unit: string): string {
  if (unit === '') return (100 * v).toFixed(1);
  if (unit === 'index') return v.toFixed(3);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

/** What follows a difference's number: " pt" for EFR shares, nothing for an index, else " <unit>". */
export function differenceUnit(unit: string): string {
  return unit === '' ? ' pt' : unit === 'index' ? '' : ` ${unit}`;
}

export function metricValues(runs: RunRecord[], metric: FindingMetric): number[] {
  return runs.map((r) => of(r, metric)).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** "measured" only when every run had RAPL counters. */
export function energySource(runs: RunRecord[]): 'measured (RAPL)' | 'ESTIMATE (linear CPU model)' {
  return runs.length > 0 && runs.every((r) => r.derived.energyWh !== null) ? 'measured (RAPL)' : 'ESTIMATE (linear CPU model)';
}
