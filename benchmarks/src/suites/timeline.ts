// Fixed windows over time (by request start): p95 and throughput over a run, the soak's first
// and last windows, the spike's recovery.
import { summarize, type LatencySummary } from './latency';
import type { RequestSample } from './samples';

export interface TimeWindow extends LatencySummary {
  /** Seconds from the start of the load. */
  fromS: number;
  toS: number;
  /** OK requests started in the window per second. */
  okPerS: number;
}

/** Requests started in [fromS, toS) seconds after `loadFromMs`. */
export function between(requests: RequestSample[], loadFromMs: number, fromS: number, toS: number): RequestSample[] {
  const lo = loadFromMs + fromS * 1000;
  const hi = loadFromMs + toS * 1000;
  return requests.filter((r) => r.t >= lo && r.t < hi);
}

/** Consecutive windows of `windowS` from fromS to toS (the last one shorter when it does not divide). */
export function timeline(requests: RequestSample[], loadFromMs: number, fromS: number, toS: number, windowS: number): TimeWindow[] {
  if (!(windowS > 0)) throw new Error('windowS must be > 0');
  const out: TimeWindow[] = [];
  for (let a = fromS; a < toS - 1e-9; a += windowS) {
    const b = Math.min(toS, a + windowS);
    const s = summarize(between(requests, loadFromMs, a, b));
    out.push({ fromS: a, toS: b, ...s, okPerS: s.ok / (b - a) });
  }
  return out;
}
