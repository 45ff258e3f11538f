// Architecture verdicts of the resilience table (issue 35 item 4): for one fault, two variants
// whose cells hold 3 runs or more are compared on the EFR during the fault and the recovery time,
// each with Welch's 95 % interval over runs (the runs are the independent unit, as in bench
// compare) and the Mann–Whitney rank test with Cliff's δ beside it. A run that did not recover
// ranks above every run that did (censored: it took longer than the window), and the recovery
// interval is given only when every run of both cells recovered.
import type { ResilienceCell, ResilienceMatrix } from '@shellgrade/console-contract';
import { difference, type Difference } from '../compare/difference';
import { mannWhitney, type RankTest } from '../stats/rank-test';

/** Fewer runs than this per cell: no verdict (the intervals of 2 runs are too wide to read). */
export const MIN_RUNS = 3;

export interface MetricVerdict {
  /** B − A with its interval (EFR: share; recovery: ms); null interval when it cannot be given. */
  difference: Difference;
  rank: RankTest | null;
  /** "B lower", "B higher" (the interval excludes 0) or "no significant difference". */
  reading: string;
  /** Why the interval is missing or partial (runs not recovered). */
  note?: string;
}

export interface PairVerdict {
  fault: string;
  a: string;
  b: string;
  efrDuring: MetricVerdict;
  recovery: MetricVerdict;
}

type CellRun = ResilienceCell['runs'][number];

function reading(d: Difference, label: string): string {
  if (d.diff === null || !d.significant) return 'no significant difference';
  return `${label} ${d.diff < 0 ? 'lower' : 'higher'}`;
}

function efrVerdict(a: CellRun[], b: CellRun[], bName: string): MetricVerdict {
  const efr = (runs: CellRun[]) => runs.map((r) => r.efrDuring).filter((x): x is number => x !== null);
  const d = difference(efr(a), efr(b));
  return { difference: d, rank: mannWhitney(efr(a), efr(b)), reading: reading(d, bName) };
}

function recoveryVerdict(a: CellRun[], b: CellRun[], bName: string): MetricVerdict {
  const censored = (runs: CellRun[]) => runs.map((r) => (r.recovered ? (r.recoveryMs ?? 0) : Number.POSITIVE_INFINITY));
  const rank = mannWhitney(censored(a), censored(b));
  const notRecovered = [...a, ...b].filter((r) => !r.recovered).length;
  if (notRecovered > 0) {
    const d = difference([], []);
    const side = (runs: CellRun[]) => `${runs.filter((r) => !r.recovered).length} of ${runs.length}`;
    const ranked = rank && rank.p < 0.05 ? `${bName} ${rank.cliffsDelta < 0 ? 'lower' : 'higher'} (rank test)` : 'no significant difference (rank test)';
    return { difference: d, rank, reading: ranked, note: `not recovered within the window: ${side(a)} vs ${side(b)} runs` };
  }
  const d = difference(a.map((r) => r.recoveryMs ?? 0), b.map((r) => r.recoveryMs ?? 0));
  return { difference: d, rank, reading: reading(d, bName) };
}

/** Every pair of `variants` (in that order: A before B) for every fault where both cells have MIN_RUNS runs. */
export function pairVerdicts(matrix: ResilienceMatrix, variants: string[] = matrix.variants): PairVerdict[] {
  const out: PairVerdict[] = [];
  matrix.faults.forEach((fault, row) => {
    const runsOf = (v: string) => matrix.cells[row][matrix.variants.indexOf(v)]?.runs ?? [];
    variants.forEach((a, i) => {
      for (const b of variants.slice(i + 1)) {
        const [ra, rb] = [runsOf(a), runsOf(b)];
        if (ra.length < MIN_RUNS || rb.length < MIN_RUNS) continue;
        out.push({ fault, a, b, efrDuring: efrVerdict(ra, rb, b), recovery: recoveryVerdict(ra, rb, b) });
      }
    });
  });
  return out;
}
