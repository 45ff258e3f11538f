// Counts and OK-latency percentiles of a set of requests (a step, a window). Percentiles use
// simple-statistics' quantileSorted (linear interpolation at rank (n − 1)·p, R and numpy type 7,
// as k6 computes p(95)), over OK requests only.
import { quantileSorted } from 'simple-statistics';
import type { RequestSample } from './samples';

export interface LatencySummary {
  requests: number;
  ok: number;
  ko: number;
  /** KO / (OK + KO): the failure rate of the requests sent. */
  koShare: number | null;
  p50: number | null;
  p95: number | null;
  koCauses: Record<string, number>;
}

export function percentile(sortedMs: number[], p: number): number | null {
  return sortedMs.length ? quantileSorted(sortedMs, p) : null;
}

export function summarize(requests: RequestSample[]): LatencySummary {
  const okMs = requests.filter((r) => r.outcome === 'ok').map((r) => r.ms).sort((a, b) => a - b);
  const koCauses: Record<string, number> = {};
  for (const r of requests) if (r.outcome === 'ko') koCauses[r.cause ?? 'unknown'] = (koCauses[r.cause ?? 'unknown'] ?? 0) + 1;
  const ko = requests.length - okMs.length;
  return {
    requests: requests.length,
    ok: okMs.length,
    ko,
    koShare: requests.length ? ko / requests.length : null,
    p50: percentile(okMs, 0.5),
    p95: percentile(okMs, 0.95),
    koCauses,
  };
}
