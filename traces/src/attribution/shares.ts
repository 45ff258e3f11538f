/**
 * Each component's share of the p50 and the p99 latency of a run, from the per-request
 * critical-path breakdowns (request.ts: parallel siblings counted once, broker hops split into
 * publish → queue wait → consume). A percentile is one latency, not a sum of per-component
 * percentiles, so its share is taken over the requests whose total lies around it: the mean of
 * each component over that band divided by the band's mean total. Shares sum to 1.
 */
import { mean, quantileSorted } from 'simple-statistics';
import type { Component } from './components';
import type { RequestBreakdown } from './request';

export interface LatencyShares {
  quantile: number;
  /** The run's latency at that quantile (ms). */
  latencyMs: number;
  /** Requests in the band the shares come from. */
  requests: number;
  /** Component -> share of the band's latency, largest first; components absent from the band are left out. */
  shares: [Component, number][];
  /** The trace of the request nearest that latency: the one to open in a waterfall. */
  exemplarTraceId: string;
}

function nearest(requests: RequestBreakdown[], ms: number): RequestBreakdown {
  return requests.reduce((best, r) => (Math.abs(r.totalMs - ms) < Math.abs(best.totalMs - ms) ? r : best));
}

/**
 * The `minRequests` requests whose rank lies nearest the quantile's: a band of a few requests
 * around a tail percentile of a short window would be one request, whose own noise (one slow
 * grading) then decides the shares.
 */
function rankBand(requests: RequestBreakdown[], quantile: number, minRequests: number): RequestBreakdown[] {
  const sorted = [...requests].sort((a, b) => a.totalMs - b.totalMs);
  const position = quantile * (sorted.length - 1);
  // Centred on the quantile's position: an odd count around a whole rank, an even one around a half rank.
  const wantsEven = Number.isInteger(position * 2) && !Number.isInteger(position);
  const wantsOdd = Number.isInteger(position);
  const offCentre = (wantsEven && minRequests % 2 === 1) || (wantsOdd && minRequests % 2 === 0);
  const k = Math.min(minRequests + (offCentre ? 1 : 0), sorted.length);
  const start = Math.min(Math.max(0, Math.round(position - (k - 1) / 2)), sorted.length - k);
  return sorted.slice(start, start + k);
}

/**
 * Requests whose total lies within [quantile − halfWidth, quantile + halfWidth] of the run's
 * totals; when that band holds fewer than `minRequests` (default 1), the ones nearest in rank.
 */
export function sharesAt(requests: RequestBreakdown[], quantile: number, halfWidth: number, minRequests = 1): LatencyShares {
  if (requests.length === 0) throw new Error('no requests to take latency shares from');
  const totals = requests.map((r) => r.totalMs).sort((a, b) => a - b);
  const latencyMs = quantileSorted(totals, quantile);
  const lo = quantileSorted(totals, Math.max(0, quantile - halfWidth));
  const hi = quantileSorted(totals, Math.min(1, quantile + halfWidth));
  let band = requests.filter((r) => r.totalMs >= lo && r.totalMs <= hi);
  if (band.length === 0) band = [nearest(requests, latencyMs)];
  if (band.length < minRequests) band = rankBand(requests, quantile, minRequests);
  const total = mean(band.map((r) => r.totalMs));
  const components = [...new Set(band.flatMap((r) => Object.keys(r.components) as Component[]))];
  const shares = components
    .map((c): [Component, number] => [c, total > 0 ? mean(band.map((r) => r.components[c] ?? 0)) / total : 0])
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1]);
  return { quantile, latencyMs, requests: band.length, shares, exemplarTraceId: nearest(band, latencyMs).traceId };
}

/** p50 over the middle 10% of requests, p99 over the top 2% (a run has hundreds, not millions). */
export function runLatencyShares(requests: RequestBreakdown[]): { p50: LatencyShares; p99: LatencyShares } {
  return { p50: sharesAt(requests, 0.5, 0.05), p99: sharesAt(requests, 0.99, 0.01) };
}
