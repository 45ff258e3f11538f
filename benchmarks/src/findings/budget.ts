// Whether one more adaptive round still fits the run's time budget. Rounds up to the minimum
// always run (fewer would decide nothing); beyond it, a round starts only when the active cells,
// at the pace measured so far in this run, would end before the budget does. A run stopped so
// says why in its record, and the methodology section flags the repetitions it lacks.

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
  if (s.round <= s.minRuns) return null;
  const needS = s.cells * s.secondsPerRun;
  if (s.elapsedS + needS <= s.budgetS) return null;
  const min = (x: number): string => `${(x / 60).toFixed(0)} min`;
  return `round ${s.round} (${s.cells} runs, ~${min(needS)} at this run's ${s.secondsPerRun.toFixed(0)} s a run) would end after the ${min(s.budgetS)} budget (${min(s.elapsedS)} spent)`;
}
