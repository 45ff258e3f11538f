/**
 * Per-p figures of a mix (paper 003's curves) from k6's summary (benchmarks/mix.js) and the
 * resource sampler: for each step, the throughput and mean/p95 response time of each request
 * type over the hold window, and the CPU each service used in that window (cores).
 */
import type { Mix } from '../profiles';
import type { ResourceSample } from '../resource-sampler';
import type { MixScheduleStep } from '../../../k6/lib/mix';

export type { MixScheduleStep };

export interface MixTypeFigures {
  /** Requests of this type answered in the hold window. */
  count: number;
  /** Per second over the hold window. */
  throughput: number;
  meanMs: number | null;
  p95Ms: number | null;
  /** Share of them that did not get the expected answer. */
  errorRate: number | null;
}

export interface MixStepRow {
  step: number;
  p: number;
  r1: MixTypeFigures;
  r2: MixTypeFigures;
  /** Both types, per second. */
  throughput: number;
  /** Cores used over the hold window, per process group (e.g. sg-gateway-0, postgres). */
  cpuCores: Record<string, number>;
}

interface K6Metric {
  values: Record<string, number>;
}

const tag = (i: number, type: 'r1' | 'r2') => `{step:${i},phase:hold,type:${type}}`;

function typeFigures(metrics: Record<string, K6Metric | undefined>, step: number, type: 'r1' | 'r2', holdS: number): MixTypeFigures {
  const rt = metrics[`mix_rt${tag(step, type)}`]?.values ?? {};
  const ok = metrics[`mix_ok${tag(step, type)}`]?.values;
  const count = rt.count ?? 0;
  return {
    count,
    throughput: holdS > 0 ? count / holdS : 0,
    meanMs: count > 0 ? (rt.avg ?? null) : null,
    p95Ms: count > 0 ? (rt['p(95)'] ?? null) : null,
    errorRate: ok && count > 0 ? 1 - (ok.rate ?? 0) : null,
  };
}

/** CPU seconds each group used between two instants, per second of it: cores. */
export function cpuCoresBetween(samples: ResourceSample[], fromMs: number, toMs: number): Record<string, number> {
  const out: Record<string, number> = {};
  const groups = new Set(samples.map((s) => s.group));
  for (const g of groups) {
    const own = samples.filter((s) => s.group === g).sort((a, b) => a.epochMs - b.epochMs);
    const before = [...own].reverse().find((s) => s.epochMs <= fromMs);
    const after = own.find((s) => s.epochMs >= toMs);
    if (!before || !after || after.epochMs <= before.epochMs) continue;
    out[g] = (after.cpuS - before.cpuS) / ((after.epochMs - before.epochMs) / 1000);
  }
  return out;
}

export function mixSteps(
  schedule: MixScheduleStep[],
  holdS: number,
  metrics: Record<string, K6Metric | undefined>,
  samples: ResourceSample[],
  loadStartMs: number,
): MixStepRow[] {
  return schedule.map((s) => {
    const r1 = typeFigures(metrics, s.index, 'r1', holdS);
    const r2 = typeFigures(metrics, s.index, 'r2', holdS);
    const cpuCores = cpuCoresBetween(samples, loadStartMs + s.holdFromS * 1000, loadStartMs + s.toS * 1000);
    return { step: s.index, p: s.p, r1, r2, throughput: r1.throughput + r2.throughput, cpuCores };
  });
}

/** Where each variant wins on throughput, per p: the paper's question "where does the pattern pay off?". */
export function winners(rows: Record<string, MixStepRow[]>): { p: number; best: string; ratio: number | null }[] {
  const [a, b] = Object.keys(rows);
  if (!a || !b) return [];
  return rows[a]!.map((ra, i) => {
    const rb = rows[b]![i];
    if (!rb) return { p: ra.p, best: a, ratio: null };
    return { p: ra.p, best: ra.throughput >= rb.throughput ? a : b, ratio: rb.throughput > 0 ? ra.throughput / rb.throughput : null };
  });
}

/** The busiest process group of a step (the bottleneck candidate), machine and load generator aside. */
export function busiest(row: MixStepRow): { group: string; cores: number } | null {
  const entries = Object.entries(row.cpuCores).filter(([g]) => g !== 'machine' && g !== 'harness' && !g.startsWith('k6'));
  if (entries.length === 0) return null;
  const [group, cores] = entries.reduce((best, e) => (e[1] > best[1] ? e : best));
  return { group, cores };
}

/** One variant's mix, as written to mix-<variant>.json. */
export interface MixVariantResult {
  schema: 'shellgrade.mix/1';
  variant: string;
  pattern: string;
  role: 'pattern' | 'baseline';
  profile: string;
  mix: Mix;
  schedule: MixScheduleStep[];
  rows: MixStepRow[];
  k6ExitCode: number;
  /** Why the figures are not to be trusted (k6 failed, no start marker). Empty when fine. */
  problems: string[];
}
