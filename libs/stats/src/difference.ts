// The difference B − A of one metric between two tests, with a 95% confidence interval over
// their runs. Runs are the independent unit (requests within a run share its load and its
// machine state), and a test has 3–10 of them: too few for a percentile bootstrap to cover its
// nominal level, so the interval is Welch's t (unequal variances, Welch–Satterthwaite degrees
// of freedom), the standard two-sample interval for small samples.
import quantile from '@stdlib/stats-base-dists-t-quantile';
import { mean, sampleVariance } from 'simple-statistics';

/** The difference B − A of one metric between two tests, with its interval over their runs. */
export interface Difference {
  nA: number;
  nB: number;
  meanA: number | null;
  meanB: number | null;
  /** meanB − meanA. */
  diff: number | null;
  /** The 95% interval of diff; null when a side has fewer than two runs. */
  lo: number | null;
  hi: number | null;
  /** diff / meanA (null when meanA is 0 or unknown). */
  relative: number | null;
  /** The interval excludes 0. */
  significant: boolean;
  /** Why no interval could be given, when there is none. */
  note?: string;
}

const finite = (xs: readonly number[]): number[] => xs.filter((x) => Number.isFinite(x));

export function difference(a: readonly number[], b: readonly number[], level = 0.95): Difference {
  const xa = finite(a);
  const xb = finite(b);
  const meanA = xa.length ? mean(xa) : null;
  const meanB = xb.length ? mean(xb) : null;
  const diff = meanA !== null && meanB !== null ? meanB - meanA : null;
  const relative = diff !== null && meanA ? diff / Math.abs(meanA) : null;
  const base = { nA: xa.length, nB: xb.length, meanA, meanB, diff, relative };
  if (diff === null || xa.length < 2 || xb.length < 2) {
    return { ...base, lo: null, hi: null, significant: false, note: 'needs at least 2 valid runs on each side' };
  }
  const [lo, hi] = welchInterval(xa, xb, diff, level);
  return { ...base, lo, hi, significant: lo > 0 || hi < 0 };
}

/** diff ± t(df) · se with se² = s²A/nA + s²B/nB; identical constant samples give [diff, diff]. */
function welchInterval(xa: number[], xb: number[], diff: number, level: number): [number, number] {
  const va = sampleVariance(xa) / xa.length;
  const vb = sampleVariance(xb) / xb.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) return [diff, diff];
  const df = (va + vb) ** 2 / (va ** 2 / (xa.length - 1) + vb ** 2 / (xb.length - 1));
  const half = quantile(1 - (1 - level) / 2, df) * se;
  return [diff - half, diff + half];
}
