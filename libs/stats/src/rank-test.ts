// Mann–Whitney U (Wilcoxon rank-sum) and Cliff's δ for two independent samples of runs: a test
// that assumes no normal shape, beside Welch's interval. The rank sum is simple-statistics'
// (average ranks for ties); the p-value is exact for untied samples (the null distribution of U
// counted over every split of the ranks), else the normal approximation with tie and continuity
// corrections — as R's wilcox.test and SciPy's mannwhitneyu do.
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { wilcoxonRankSum } from 'simple-statistics';

export type Magnitude = 'negligible' | 'small' | 'medium' | 'large';

export interface RankTest {
  nA: number;
  nB: number;
  /** U of B: pairs (a, b) with b > a, ties counted ½. uA + uB = nA·nB. */
  uB: number;
  uA: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
  /** Cliff's δ = P(B > A) − P(B < A), in [−1, 1]: positive when B tends to be larger. */
  cliffsDelta: number;
  magnitude: Magnitude;
}

/** Romano et al. (2006) thresholds for |δ|: 0.147, 0.33, 0.474. */
export function magnitudeOf(delta: number): Magnitude {
  const d = Math.abs(delta);
  return d < 0.147 ? 'negligible' : d < 0.33 ? 'small' : d < 0.474 ? 'medium' : 'large';
}

/** Number of arrangements giving each U = 0 … m·n when m and n untied values are split at random. */
function exactCounts(m: number, n: number): number[] {
  // f[i][j][u]: ways for i values of one sample and j of the other to give U = u (recurrence on the largest value).
  let prev: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const cur: number[][] = [[1]];
    for (let j = 1; j <= n; j++) {
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      // The largest value belongs to the first sample (adds j to U) or to the second.
      prev[j].forEach((c, u) => (row[u + j] += c));
      cur[j - 1].forEach((c, u) => (row[u] += c));
      cur.push(row);
    }
    prev = cur;
  }
  return prev[n];
}

function exactP(u: number, m: number, n: number): number {
  const counts = exactCounts(m, n);
  const total = counts.reduce((s, c) => s + c, 0);
  const below = counts.slice(0, Math.floor(u) + 1).reduce((s, c) => s + c, 0) / total;
  const above = counts.slice(Math.ceil(u)).reduce((s, c) => s + c, 0) / total;
  return Math.min(1, 2 * Math.min(below, above));
}

function normalP(u: number, m: number, n: number, all: number[]): number {
  const N = m + n;
  const ties = [...all.reduce((acc, x) => acc.set(x, (acc.get(x) ?? 0) + 1), new Map<number, number>()).values()];
  const tieTerm = ties.reduce((s, t) => s + (t ** 3 - t), 0) / (N * (N - 1));
  const sd = Math.sqrt(((m * n) / 12) * (N + 1 - tieTerm));
  if (sd === 0) return 1;
  const z = (Math.abs(u - (m * n) / 2) - 0.5) / sd;
  return Math.min(1, 2 * (1 - normalCdf(Math.max(z, 0), 0, 1)));
}

export function mannWhitney(a: readonly number[], b: readonly number[]): RankTest | null {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return null;
  const uB = wilcoxonRankSum([...b], [...a]) - (n * (n + 1)) / 2;
  const uA = m * n - uB;
  const all = [...a, ...b];
  const tied = new Set(all).size < all.length;
  const exact = !tied && m <= 50 && n <= 50;
  const p = exact ? exactP(uB, m, n) : normalP(uB, m, n, all);
  const cliffsDelta = (2 * uB) / (m * n) - 1;
  return { nA: m, nB: n, uA, uB, p, method: exact ? 'exact' : 'normal', cliffsDelta, magnitude: magnitudeOf(cliffsDelta) };
}
