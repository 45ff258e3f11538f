import { aggregateRuns, estimate, flattenNumbers } from '../src/aggregate';

describe('estimate (mean and 95% CI over runs)', () => {
  it('uses Student t with n-1 degrees of freedom', () => {
    const e = estimate([1, 2, 3, 4, 5])!;
    expect(e.n).toBe(5);
    expect(e.mean).toBe(3);
    expect(e.sd).toBeCloseTo(1.5811, 4);
    // t(0.975, 4) = 2.7764
    expect(e.ci95).toBeCloseTo((2.7764 * 1.5811) / Math.sqrt(5), 3);
  });

  it('gives the textbook half-width for 10 runs (t = 2.262)', () => {
    const xs = [10, 12, 11, 13, 9, 10, 12, 11, 10, 12];
    const e = estimate(xs)!;
    const mean = xs.reduce((a, b) => a + b) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    expect(e.ci95).toBeCloseTo((2.2622 * sd) / Math.sqrt(10), 3);
  });

  it('has no interval with a single run and nothing without runs', () => {
    expect(estimate([0.5])).toEqual({ n: 1, mean: 0.5, sd: null, ci95: null, min: 0.5, max: 0.5 });
    expect(estimate([])).toBeNull();
    expect(estimate([NaN])).toBeNull();
  });

  it('gives a zero-width interval when every run agrees', () => {
    expect(estimate([1, 1, 1])!.ci95).toBe(0);
  });
});

describe('aggregateRuns', () => {
  it('flattens nested metrics to dotted paths and skips nulls and strings', () => {
    expect(flattenNumbers({ RAC: 1, sps: { FR: 0.25, p95: null }, name: 'x' })).toEqual({ RAC: 1, 'sps.FR': 0.25 });
  });

  it('estimates every path over the runs that have it', () => {
    const out = aggregateRuns([{ RAC: 1, sps: { FR: 0.2 } }, { RAC: 0.5, sps: { FR: null } }, { RAC: 0.75 }]);
    expect(out.RAC.mean).toBeCloseTo(0.75);
    expect(out.RAC.n).toBe(3);
    expect(out['sps.FR']).toMatchObject({ n: 1, mean: 0.2 });
  });
});
