// The comparisons the stopping rule watches — every claim part both of whose cells the plan
// runs — and the cells still needed: those with a comparison not yet precise (stats/stopping.ts).
import type { Side } from '../compare/sides';
import { stoppingState, type StoppingState } from '../stats/stopping';
import { CLAIMS, type Claim, type FindingMetric } from './claims';
import { metricValues } from './metrics';
import type { FindingsPlan, PlannedCell } from './plan';
import { cellKey } from './schedule';

/** One comparison the stopping rule watches: a claim part between two planned cells. */
export interface WatchedComparison {
  claim: string;
  a: string;
  b: string;
  metric: FindingMetric;
  state: StoppingState | null;
}

/** Every claim part both of whose cells the plan runs. */
export function watchedComparisons(plan: Pick<FindingsPlan, 'cells' | 'roles'>, claims: readonly Claim[] = CLAIMS): WatchedComparison[] {
  const planned = new Set(plan.cells.map(cellKey));
  const out: WatchedComparison[] = [];
  for (const c of claims) {
    for (const t of c.tests) {
      const [va, vb] = [plan.roles[t.a], plan.roles[t.b]];
      if (!va || !vb) continue;
      const a = cellKey({ variant: va, level: t.level });
      const b = cellKey({ variant: vb, level: t.level });
      if (planned.has(a) && planned.has(b) && !out.some((x) => x.a === a && x.b === b && x.metric === t.metric)) out.push({ claim: c.id, a, b, metric: t.metric, state: null });
    }
  }
  return out;
}

/** Stopping states from the runs so far; the cells still needed (any comparison of theirs undecided). */
export function settle(plan: Pick<FindingsPlan, 'protocol'>, comparisons: WatchedComparison[], sides: Record<string, Side>): void {
  for (const w of comparisons) {
    const [a, b] = [sides[w.a], sides[w.b]];
    w.state = stoppingState(a ? metricValues(a.runs, w.metric) : [], b ? metricValues(b.runs, w.metric) : [], plan.protocol.stopping);
  }
}

/**
 * Whether a comparison still needs runs of this cell: it is too wide, or this side is below the
 * minimum. A side that has its minimum waits while the other catches up (a new cell compared
 * with an old one), instead of adding runs that cannot decide anything yet.
 */
function needsRunsOf(w: WatchedComparison, key: string, minRuns: number): boolean {
  const s = w.state!;
  if (s.stop) return false;
  return s.reason !== 'too few runs' || (w.a === key ? s.nA : s.nB) < minRuns;
}

export function activeCells(plan: FindingsPlan, comparisons: WatchedComparison[], sides: Record<string, Side>): PlannedCell[] {
  settle(plan, comparisons, sides);
  const { minRuns } = plan.protocol.stopping;
  return plan.cells.filter((c) => {
    const key = cellKey(c);
    const mine = comparisons.filter((w) => w.a === key || w.b === key);
    return mine.length === 0 ? (sides[key]?.runs.length ?? 0) < minRuns : mine.some((w) => needsRunsOf(w, key, minRuns));
  });
}

