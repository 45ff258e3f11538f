/**
 * Tracing overhead: the same variant benchmarked with tracing on and off; ratios of
 * SPS throughput and SPS p95 from the two runs' aggregated.json (means over runs).
 */
import { readAggregate, type RunAggregate } from './run-files';

export interface OverheadReport {
  on: string;
  off: string;
  variant: { on?: string; off?: string };
  metrics: { metric: string; on: number | null; off: number | null; ratio: number | null }[];
  /** 1 − throughput(on)/throughput(off): the throughput lost to tracing. */
  throughputOverhead: number | null;
}

const METRICS = ['sps.throughput', 'sps.throughputHold', 'sps.p95', 'sps.p50', 'throughput', 'p95'];

function value(a: RunAggregate, metric: string): number | null {
  const e = a.paper[metric];
  return e && Number.isFinite(e.mean) ? e.mean : null;
}

export function compareOverhead(onId: string, offId: string, on: RunAggregate, off: RunAggregate): OverheadReport {
  if (on.meta.tracing === false) throw new Error(`run ${onId} was not traced (meta.tracing=false): swap --on/--off?`);
  if (off.meta.tracing === true) throw new Error(`run ${offId} was traced (meta.tracing=true): swap --on/--off?`);
  const metrics = METRICS.map((metric) => {
    const a = value(on, metric);
    const b = value(off, metric);
    return { metric, on: a, off: b, ratio: a !== null && b !== null && b !== 0 ? a / b : null };
  });
  const tput = metrics.find((m) => m.metric === 'sps.throughput')?.ratio ?? null;
  return {
    on: onId,
    off: offId,
    variant: { on: on.meta.variant, off: off.meta.variant },
    metrics,
    throughputOverhead: tput === null ? null : 1 - tput,
  };
}

export function overheadFromRuns(onId: string, offId: string): OverheadReport {
  return compareOverhead(onId, offId, readAggregate(onId), readAggregate(offId));
}

export function formatOverhead(r: OverheadReport): string {
  const fmt = (v: number | null, digits = 3) => (v === null ? 'n/a' : v.toFixed(digits));
  const lines = [
    `tracing overhead: on=${r.on} (${r.variant.on ?? '?'}) vs off=${r.off} (${r.variant.off ?? '?'})`,
    ...r.metrics.map((m) => `  ${m.metric.padEnd(15)} on=${fmt(m.on, 2).padStart(10)} off=${fmt(m.off, 2).padStart(10)} ratio=${fmt(m.ratio)}`),
    `  throughput lost to tracing: ${r.throughputOverhead === null ? 'n/a' : `${(100 * r.throughputOverhead).toFixed(1)}%`}`,
  ];
  if (r.variant.on && r.variant.off && r.variant.on !== r.variant.off) lines.push(`  WARNING: different variants`);
  return lines.join('\n');
}
