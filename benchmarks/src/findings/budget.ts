// Whether one more adaptive round still fits the run's time budget. Rounds up to the minimum
// always run (fewer would decide nothing); beyond it, a round starts only when the active cells,
// at the pace measured so far in this run, would end before the budget does. A run stopped so
// says why in its record, and the methodology section flags the repetitions it lacks.
// A continuation (--continue) has no round numbers of its own: there the minimum is per cell
// (roundCells), so a cell added or rerun still reaches the minimum when the budget is spent.

export interface BudgetState {
  /** The round about to start (1-based). */
  round: number;
  minRuns: number;
  /** Since the findings run started (search included), seconds. */
  elapsedS: number;
  /** Seconds the rounds have taken per run so far (bring-ups included). */
  secondsPerRun: number;
  /** Cells the round would run. */
  cells: number;
  budgetS: number;
}

/** null: the round fits (or is one of the minimum); else the reason it is not started. */
export function roundOverBudget(s: BudgetState): string | null {
  return s.round <= s.minRuns ? null : overBudget(s);
}

/** null: the round ends within the budget at the measured pace; else why not. */
function overBudget(s: BudgetState): string | null {
  const needS = s.cells * s.secondsPerRun;
  if (s.elapsedS + needS <= s.budgetS) return null;
  const min = (x: number): string => `${(x / 60).toFixed(0)} min`;
  return `round ${s.round} (${s.cells} runs, ~${min(needS)} at this run's ${s.secondsPerRun.toFixed(0)} s a run) would end after the ${min(s.budgetS)} budget (${min(s.elapsedS)} spent)`;
}

/**
 * The cells one round of a continuation runs: every active cell while the round fits the budget;
 * past it, only the cells still below the minimum (none: the continuation stops, with the reason).
 */
export function roundCells<C>(active: readonly C[], runsOf: (c: C) => number, s: Omit<BudgetState, 'cells'>): { cells: C[]; stopped: string | null } {
  if (!active.length) return { cells: [], stopped: null };
  const over = overBudget({ ...s, cells: active.length });
  if (!over) return { cells: [...active], stopped: null };
  const below = active.filter((c) => runsOf(c) < s.minRuns);
  return { cells: below, stopped: below.length ? null : over };
}
