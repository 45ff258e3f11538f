// Spearman's ρ of two rankings (midranks for ties: simple-statistics) with a confidence interval
// from Fisher's z transform. For ρ the plain 1/(n − 3) variance of z (Fisher's, for Pearson's r)
// is too small; Bonett & Wright (Psychometrika 65, 2000) give (1 + ρ²/2)/(n − 3), good from
// n ≥ 4 (the interval needs n > 3). A reproduction compares 6–15 configurations, so the interval
// is wide, and is printed beside ρ.
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { sampleRankCorrelation } from 'simple-statistics';

export interface RankCorrelation {
  /** Pairs with a figure on both sides. */
  n: number;
  /** null: fewer than 3 pairs, or one side has every value equal (no ranking). */
  rho: number | null;
  /** The interval; null where n ≤ 3 or ρ is ±1 (z is infinite there: no informative interval). */
  lo: number | null;
  hi: number | null;
  confidence: number;
}

/** Variance of z = atanh(ρ): Fisher's 1/(n − 3) (Pearson's r), or Bonett–Wright's for Spearman's ρ. */
export type ZVariance = 'fisher' | 'bonett-wright';

/** Fisher-z interval for a correlation over n pairs. */
export function correlationInterval(rho: number, n: number, confidence = 0.95, variance: ZVariance = 'bonett-wright'): { lo: number; hi: number } | null {
  if (n <= 3 || Math.abs(rho) >= 1) return null;
  const z = Math.atanh(rho);
  const se = Math.sqrt((variance === 'fisher' ? 1 : 1 + (rho * rho) / 2) / (n - 3));
  const q = normalQuantile(1 - (1 - confidence) / 2, 0, 1);
  return { lo: Math.tanh(z - q * se), hi: Math.tanh(z + q * se) };
}

/** Spearman's ρ of x and y (paired by index; a pair with a null on either side is dropped) and its interval. */
export function spearman(x: readonly (number | null)[], y: readonly (number | null)[], confidence = 0.95): RankCorrelation {
  const pairs: [number, number][] = [];
  x.forEach((v, i) => {
    const w = y[i];
    if (v !== null && w !== null && w !== undefined) pairs.push([v, w]);
  });
  const n = pairs.length;
  const rho = n >= 3 ? sampleRankCorrelation(pairs.map((p) => p[0]), pairs.map((p) => p[1])) : NaN;
  if (!Number.isFinite(rho)) return { n, rho: null, lo: null, hi: null, confidence };
  const ci = correlationInterval(rho, n, confidence);
  return { n, rho, lo: ci?.lo ?? null, hi: ci?.hi ?? null, confidence };
}
