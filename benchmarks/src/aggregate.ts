// Mean and 95% confidence interval over the runs of a test (Student's t, n - 1 degrees of
// freedom), for every numeric metric of the per-run records.
import quantile from '@stdlib/stats-base-dists-t-quantile';
import { mean, sampleStandardDeviation } from 'simple-statistics';

export interface Estimate {
  n: number;
  mean: number;
  sd: number | null;
  /** Half-width of the 95% CI; null with fewer than two runs. */
  ci95: number | null;
  min: number;
  max: number;
}

export function estimate(values: number[]): Estimate | null {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return null;
  const m = mean(xs);
  if (xs.length < 2) return { n: 1, mean: m, sd: null, ci95: null, min: xs[0], max: xs[0] };
  const sd = sampleStandardDeviation(xs);
  const t = quantile(0.975, xs.length - 1);
  return { n: xs.length, mean: m, sd, ci95: (t * sd) / Math.sqrt(xs.length), min: Math.min(...xs), max: Math.max(...xs) };
}

type Tree = { [key: string]: unknown };

/** Flattens nested numeric leaves to dotted paths: { sps: { FR: 0.1 } } -> { "sps.FR": 0.1 }. */
export function flattenNumbers(obj: unknown, prefix = '', out: Record<string, number> = {}): Record<string, number> {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return out;
  for (const [k, v] of Object.entries(obj as Tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'number') out[key] = v;
    else if (v && typeof v === 'object') flattenNumbers(v, key, out);
  }
  return out;
}

/** Estimates per metric path over runs; a path missing (or null) in a run is left out of that run. */
export function aggregateRuns(runs: unknown[]): Record<string, Estimate> {
  const flat = runs.map((r) => flattenNumbers(r));
  const keys = [...new Set(flat.flatMap((f) => Object.keys(f)))].sort();
  const out: Record<string, Estimate> = {};
  for (const key of keys) {
    const e = estimate(flat.map((f) => f[key]).filter((v): v is number => v !== undefined));
    if (e) out[key] = e;
  }
  return out;
}
