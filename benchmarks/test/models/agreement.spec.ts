// Agreement over a set of runs: Spearman's ρ, MAE and min–max-normalised MAE, worked by hand.
import { agreement, agreementOver } from '../../src/models/agreement';
import type { Comparison } from '../../src/models/compare';

describe('prediction/measurement agreement', () => {
  it('Spearman ρ = 1 − 6Σd² / (n(n² − 1)), MAE, MAE / measured range', () => {
    // ranks: predicted 1 2 3 4, measured 2 1 3 4 → Σd² = 2, ρ = 1 − 12/60 = 0.8; |errors| 1 1 0 1.
    const a = agreement('x', [
      { predicted: 1, measured: 2 },
      { predicted: 2, measured: 1 },
      { predicted: 3, measured: 3 },
      { predicted: 5, measured: 4 },
    ]);
    expect(a.spearmanRho).toBeCloseTo(0.8, 12);
    expect(a.mae).toBeCloseTo(0.75, 12);
    expect(a.normalizedMae).toBeCloseTo(0.75 / 3, 12);
  });

  it('says n/a instead of inventing a figure: one run has no ranking, equal measurements no range', () => {
    expect(agreement('x', [{ predicted: 1, measured: 2 }]).spearmanRho).toBeNull();
    expect(agreement('x', [{ predicted: 1, measured: 2 }, { predicted: 3, measured: 2 }]).normalizedMae).toBeNull();
    expect(agreement('x', [])).toEqual({ metric: 'x', n: 0, spearmanRho: null, mae: null, normalizedMae: null });
  });

  it('pairs each metric across runs and skips the runs where a side is missing', () => {
    const run = (tput: number, measured: number, rt: number | null): Comparison => ({
      schema: 'shellgrade.model-compare/1',
      variant: 'v',
      runFolder: 'r',
      demandsFrom: 'd',
      arrivalRate: 9,
      saturationRate: 10,
      bottleneck: 'cpu',
      unmeasured: [],
      rows: [
        { metric: 'tput', predicted: tput, measured, relError: null },
        { metric: 'rt', predicted: rt, measured: 1, relError: null },
      ],
    });
    const out = agreementOver([run(6, 9, null), run(9, 9, 0.5), run(10, 9.5, 0.7)]);
    expect(out.find((a) => a.metric === 'tput')!.n).toBe(3);
    expect(out.find((a) => a.metric === 'tput')!.mae).toBeCloseTo((3 + 0 + 0.5) / 3, 12);
    expect(out.find((a) => a.metric === 'rt')!.n).toBe(2);
  });
});
