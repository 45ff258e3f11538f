import { stoppingState, type StoppingRule } from '../../src/stats/stopping';

// Fabricated samples: the rule stops a comparison once the 95% Welch half-width of B − A is
// within 10 % of A's median, or at the maximum; never before the minimum.
const RULE: StoppingRule = { minRuns: 3, maxRuns: 8, precision: 0.1 };

describe('adaptive stopping rule', () => {
  it('too few runs: continues below the minimum even when the samples agree', () => {
    expect(stoppingState([100, 100.5], [120, 120.5], RULE)).toMatchObject({ stop: false, reason: 'too few runs' });
  });

  it('tight samples stop at the minimum: half-width 2.27 ≤ 10 (t(0.975, 4) × √(2/3)) (10 % of median 100)', () => {
    const s = stoppingState([99, 100, 101], [119, 120, 121], RULE);
    expect(s).toMatchObject({ stop: true, reason: 'precise', target: 10 });
    expect(s.halfWidth!).toBeCloseTo(2.2667, 3);
  });

  it('noisy samples continue: half-width 45.3 > 10', () => {
    const s = stoppingState([80, 100, 120], [100, 120, 140], RULE);
    expect(s).toMatchObject({ stop: false, reason: 'too wide', target: 10 });
    expect(s.halfWidth!).toBeCloseTo(45.339, 2);
  });

  it('noisy samples stop at the stated maximum, saying so', () => {
    const a = [80, 120, 80, 120, 80, 120, 80, 120];
    expect(stoppingState(a, a.map((x) => x + 20), RULE)).toMatchObject({ stop: true, reason: 'maximum', nA: 8, nB: 8 });
    expect(stoppingState(a.slice(0, 7), a.map((x) => x + 20), RULE)).toMatchObject({ stop: false, reason: 'too wide' });
  });

  it('the target follows the baseline median, not its mean', () => {
    expect(stoppingState([10, 11, 1000], [10, 11, 12], RULE).target).toBeCloseTo(1.1, 12);
  });
});
