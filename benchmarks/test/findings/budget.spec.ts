import { roundOverBudget } from '../../src/findings/budget';

describe('findings time budget', () => {
  const base = { minRuns: 3, secondsPerRun: 90, cells: 10, budgetS: 150 * 60 };

  it('always runs the minimum rounds, even past the budget', () => {
    expect(roundOverBudget({ ...base, round: 3, elapsedS: 200 * 60 })).toBeNull();
  });

  it('starts a further round only when its cells at the measured pace end within the budget', () => {
    // 10 runs × 90 s = 15 min: 130 + 15 = 145 ≤ 150 fits; 140 + 15 = 155 does not.
    expect(roundOverBudget({ ...base, round: 4, elapsedS: 130 * 60 })).toBeNull();
    expect(roundOverBudget({ ...base, round: 4, elapsedS: 140 * 60 })).toBe('round 4 (10 runs, ~15 min at this run\'s 90 s a run) would end after the 150 min budget (140 min spent)');
  });

  it('counts only the cells still active', () => {
    expect(roundOverBudget({ ...base, round: 5, elapsedS: 140 * 60, cells: 6 })).toBeNull();
  });
});
