// A linear contrast Σ cᵢ·meanᵢ over independent groups of runs with its 95% interval (Welch–
// Satterthwaite degrees of freedom): the 2 × 2's interaction, (msa-async − mon-async) −
// (msa-blocking − mon-blocking), is one with coefficients +1 −1 −1 +1.
import quantile from '@stdlib/stats-base-dists-t-quantile';
import { mean, sampleVariance } from 'simple-statistics';

export interface ContrastEstimate {
  value: number;
  lo: number | null;
  hi: number | null;
  significant: boolean;
}

export function contrast(groups: { xs: number[]; c: number }[], level = 0.95): ContrastEstimate | null {
  if (groups.some((g) => g.xs.length === 0)) return null;
  const value = groups.reduce((s, g) => s + g.c * mean(g.xs), 0);
  if (groups.some((g) => g.xs.length < 2)) return { value, lo: null, hi: null, significant: false };
  const parts = groups.map((g) => ({ v: (g.c ** 2 * sampleVariance(g.xs)) / g.xs.length, df: g.xs.length - 1 }));
  const v = parts.reduce((s, p) => s + p.v, 0);
  if (v === 0) return { value, lo: value, hi: value, significant: value !== 0 };
  const df = v ** 2 / parts.reduce((s, p) => s + p.v ** 2 / p.df, 0);
  const half = quantile(1 - (1 - level) / 2, df) * Math.sqrt(v);
  return { value, lo: value - half, hi: value + half, significant: value - half > 0 || value + half < 0 };
}
