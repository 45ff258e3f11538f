// Two one-sided tests (Schuirmann 1987; Welch form as in Lakens 2017) for B − A within
// ±margin: equivalence is concluded when both H0: diff ≤ −margin and H0: diff ≥ +margin are
// rejected at α — the same as the (1 − 2α) Welch interval lying inside the band.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { mean, sampleVariance } from 'simple-statistics';

export interface Tost {
  margin: number;
  diff: number;
  df: number;
  /** t and one-sided p against the lower bound (H0: diff ≤ −margin). */
  tLower: number;
  pLower: number;
  /** t and one-sided p against the upper bound (H0: diff ≥ +margin). */
  tUpper: number;
  pUpper: number;
  /** max(pLower, pUpper): equivalent when ≤ α. */
  p: number;
  equivalent: boolean;
}

/** null when a side has fewer than 2 values or the margin is not positive. */
export function tost(a: readonly number[], b: readonly number[], margin: number, alpha = 0.05): Tost | null {
  if (a.length < 2 || b.length < 2 || !(margin > 0)) return null;
  const diff = mean([...b]) - mean([...a]);
  const va = sampleVariance([...a]) / a.length;
  const vb = sampleVariance([...b]) / b.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) {
    const inside = Math.abs(diff) < margin;
    return { margin, diff, df: Infinity, tLower: Infinity, pLower: inside ? 0 : 1, tUpper: -Infinity, pUpper: inside ? 0 : 1, p: inside ? 0 : 1, equivalent: inside };
  }
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const tLower = (diff + margin) / se;
  const tUpper = (diff - margin) / se;
  const pLower = 1 - tCdf(tLower, df);
  const pUpper = tCdf(tUpper, df);
  const p = Math.max(pLower, pUpper);
  return { margin, diff, df, tLower, pLower, tUpper, pUpper, p, equivalent: p <= alpha };
}
