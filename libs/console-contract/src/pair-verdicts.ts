// Architecture verdicts of the resilience table: for one fault, two variants
// whose cells hold 3 runs or more are compared on the EFR during the fault and the recovery time,
// each with Welch's 95 % interval over runs (the runs are the independent unit, as in bench
// compare) and the Mann–Whitney rank test with Cliff's δ beside it. A run that did not recover
// ranks above every run that did (censored: it took longer than the window), and the recovery
// interval is given only when every run of both cells recovered.
import { difference, mannWhitney, type Difference } from '@shellgrade/stats';
import type { MetricVerdict, PairVerdict, ResilienceCell, ResilienceMatrix } from './reports';

/** Fewer runs than this per cell: no verdict (the intervals of 2 runs are too wide to read). */
export const MIN_RUNS = 3;

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

const signed = (v: number, digits: number) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;

/** "B − A [lo, hi]" in the metric's unit (scale: share → percentage points, ms → s), or why none. */
function intervalText(m: MetricVerdict, scale: number, unit: string, digits: number): string {
  const d = m.difference;
  if (d.diff === null || d.lo === null || d.hi === null) return m.note ?? d.note ?? 'n/a';
  return `${signed(d.diff * scale, digits)} ${unit} [${signed(d.lo * scale, digits)}, ${signed(d.hi * scale, digits)}]`;
}

function rankText(m: MetricVerdict): string {
  return m.rank ? `p ${m.rank.p.toFixed(3)} · δ ${signed(m.rank.cliffsDelta, 2)} (${m.rank.magnitude})` : 'n/a';
}

const meanText = (m: MetricVerdict, scale: number, digits: number) =>
  m.difference.meanA === null || m.difference.meanB === null ? 'n/a' : `${(m.difference.meanA * scale).toFixed(digits)} / ${(m.difference.meanB * scale).toFixed(digits)}`;

/** The figures of a verdict row after "A vs B", as the resilience report and the console's Faults page print them. */
export const PAIR_VERDICT_COLUMNS = ['EFR during A / B (%)', 'EFR B − A [95 % CI]', 'EFR rank test', 'recovery A / B (s)', 'recovery B − A [95 % CI]', 'recovery rank test', 'reading (EFR; recovery)'];

export function pairVerdictCells(v: PairVerdict): string[] {
  return [
    meanText(v.efrDuring, 100, 1),
    intervalText(v.efrDuring, 100, 'pp', 1),
    rankText(v.efrDuring),
    v.recovery.note ? 'n/a' : meanText(v.recovery, 1 / 1000, 1),
    intervalText(v.recovery, 1 / 1000, 's', 1),
    rankText(v.recovery),
    `${v.efrDuring.reading}; ${v.recovery.reading}`,
  ];
}
