// The ratio new / reference of one metric measured in pairs — rounds that ran one right after the
// other on one host — with a 95% confidence interval. A shared host drifts in speed over minutes
// (a speed probe moved 33 → 48 ms within one comparison here), and both sides of a pair see the
// same drift: so the unit is the pair's ratio, not each side's runs apart. Ratios multiply, so the
// interval is Student's t over the logarithms of the pairs' ratios, taken back: a geometric mean
// ratio whose interval is not symmetric, and which an equal pair's 1.00 × sits in the middle of.
import quantile from '@stdlib/stats-base-dists-t-quantile';
import { mean, sampleStandardDeviation } from 'simple-statistics';

export interface PairedRatio {
  /** Pairs with both values finite and positive. */
  pairs: number;
  /** The geometric mean of new / reference over the pairs; null without a pair. */
  ratio: number | null;
  /** The interval of the ratio; null with fewer than two pairs. */
  lo: number | null;
  hi: number | null;
  /** The interval excludes 1: new and reference differ at the level asked. */
  significant: boolean;
  /** Why no interval could be given, when there is none. */
  note?: string;
}

/** new[i] / reference[i] over the pairs, with the interval of their geometric mean at `level`. */
export function pairedRatio(reference: readonly number[], measured: readonly number[], level = 0.95): PairedRatio {
  const logs = reference
    .map((ref, i) => [ref, measured[i]] as const)
    .filter(([ref, now]) => Number.isFinite(ref) && Number.isFinite(now) && ref > 0 && now! > 0)
    .map(([ref, now]) => Math.log(now! / ref));
  if (logs.length === 0) return { pairs: 0, ratio: null, lo: null, hi: null, significant: false, note: 'no pair with both values' };
  const centre = mean(logs);
  const ratio = Math.exp(centre);
  if (logs.length < 2) return { pairs: 1, ratio, lo: null, hi: null, significant: false, note: 'needs at least 2 pairs' };
  const half = quantile(1 - (1 - level) / 2, logs.length - 1) * (sampleStandardDeviation(logs) / Math.sqrt(logs.length));
  const [lo, hi] = [Math.exp(centre - half), Math.exp(centre + half)];
  return { pairs: logs.length, ratio, lo, hi, significant: lo > 1 || hi < 1 };
}
