// One comparison of B against A over runs, every way the report states it: Welch's 95% interval
// of B − A, Mann–Whitney U with Cliff's δ (no normal shape assumed), and TOST against the
// claim's practical-equivalence band (±margin × the larger mean).
import { difference, type Difference, mannWhitney, type RankTest } from '@shellgrade/stats';
import { tost, type Tost } from '../stats/tost';

export interface Comparison {
  welch: Difference;
  rank: RankTest | null;
  /** Half-width of the equivalence band in the metric's unit (null: no mean). */
  band: number | null;
  margin: number;
  tost: Tost | null;
}

export function compareRuns(a: readonly number[], b: readonly number[], margin: number): Comparison {
  const welch = difference(a, b);
  const band = welch.meanA === null || welch.meanB === null ? null : margin * Math.max(Math.abs(welch.meanA), Math.abs(welch.meanB));
  return { welch, rank: mannWhitney(a, b), band, margin, tost: band === null ? null : tost(a, b, band) };
}
