/**
 * Per-variant aggregation of request breakdowns: median and p95 of every component and
 * of the total, plus the mean breakdown of the requests around the median (40th–60th
 * percentile of total) and in the tail (90th–99th), whose stacks add up to those
 * latencies — a component's median does not, which is why the chart uses the bands.
 */
import { mean, quantileSorted } from 'simple-statistics';
import { COMPONENTS, UNCOVERED, type Component } from './components';
import type { RequestBreakdown } from './request';
import { runLatencyShares, type LatencyShares } from './shares';

export interface Distribution {
  median: number;
  p95: number;
  mean: number;
}

export interface VariantBreakdown {
  variant: string;
  requests: number;
  /** Requests whose client-observed duration was matched by trace id. */
  matchedClientSamples: number;
  totalMs: Distribution;
  components: Record<Component, Distribution>;
  /** Mean ms per component over requests with total in [p40, p60]: sums to ≈ median latency. */
  medianBand: Record<Component, number>;
  /** Mean ms per component over requests with total in [p90, p99]. */
  tailBand: Record<Component, number>;
  /** 1 − Σ unexplained / Σ total over all requests. */
  explainedShare: number;
  /** Same over the median band: the share of median latency explained by named components. */
  explainedShareMedian: number;
  /**
   * Σ time covered by named spans / Σ client-observed latency: the inferred client-side wait
   * (k6 duration minus the root span) and unexplained self time are not covered. Computed,
   * never 1 by construction.
   */
  coverage: number;
  coverageMedian: number;
  /** Each component's share of the p50 and p99 latency (shares.ts). */
  shares: { p50: LatencyShares; p99: LatencyShares };
  /** PostgreSQL statements per submission (its whole trace); absent in files written before it was counted. */
  databaseRoundTrips?: Distribution;
}

/** Milliseconds of a breakdown covered by named spans. */
export function coveredMs(r: RequestBreakdown): number {
  return COMPONENTS.filter((c) => !UNCOVERED.has(c)).reduce((s, c) => s + componentMs(r, c), 0);
}

function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantileSorted(sorted, 0.5), p95: quantileSorted(sorted, 0.95), mean: mean(sorted) };
}

function componentMs(r: RequestBreakdown, c: Component): number {
  return r.components[c] ?? 0;
}

function bandMeans(requests: RequestBreakdown[], lo: number, hi: number): { band: Record<Component, number>; total: number } {
  const totals = requests.map((r) => r.totalMs).sort((a, b) => a - b);
  const from = quantileSorted(totals, lo);
  const to = quantileSorted(totals, hi);
  let members = requests.filter((r) => r.totalMs >= from && r.totalMs <= to);
  if (members.length === 0) members = requests;
  const band = Object.fromEntries(
    COMPONENTS.map((c) => [c, mean(members.map((r) => componentMs(r, c)))]),
  ) as Record<Component, number>;
  return { band, total: mean(members.map((r) => r.totalMs)) };
}

function explained(unexplained: number, total: number): number {
  return total > 0 ? 1 - unexplained / total : 0;
}

export function aggregateVariant(variant: string, requests: RequestBreakdown[]): VariantBreakdown {
  if (requests.length === 0) throw new Error(`no SPS requests for variant ${variant}`);
  const components = Object.fromEntries(
    COMPONENTS.map((c) => [c, distribution(requests.map((r) => componentMs(r, c)))]),
  ) as Record<Component, Distribution>;
  const median = bandMeans(requests, 0.4, 0.6);
  const tail = bandMeans(requests, 0.9, 0.99);
  const sumTotal = requests.reduce((s, r) => s + r.totalMs, 0);
  const sumUnexplained = requests.reduce((s, r) => s + componentMs(r, 'unexplained'), 0);
  const sumCovered = requests.reduce((s, r) => s + coveredMs(r), 0);
  const medianCovered = COMPONENTS.filter((c) => !UNCOVERED.has(c)).reduce((s, c) => s + median.band[c], 0);
  return {
    variant,
    requests: requests.length,
    matchedClientSamples: requests.filter((r) => r.clientMs !== null).length,
    totalMs: distribution(requests.map((r) => r.totalMs)),
    components,
    medianBand: median.band,
    tailBand: tail.band,
    explainedShare: explained(sumUnexplained, sumTotal),
    explainedShareMedian: explained(median.band.unexplained, median.total),
    coverage: sumTotal > 0 ? sumCovered / sumTotal : 0,
    coverageMedian: median.total > 0 ? medianCovered / median.total : 0,
    shares: runLatencyShares(requests),
    databaseRoundTrips: distribution(requests.map((r) => r.databaseRoundTrips ?? 0)),
  };
}

export function aggregateByVariant(requests: RequestBreakdown[]): VariantBreakdown[] {
  const groups = new Map<string, RequestBreakdown[]>();
  for (const r of requests) {
    const list = groups.get(r.variant) ?? [];
    list.push(r);
    groups.set(r.variant, list);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([v, rs]) => aggregateVariant(v, rs));
}
