import { pairedRatio } from './paired-ratio';

describe('pairedRatio (Student t over the logs of the pairs\' ratios)', () => {
  it('gives the textbook interval for a known case: ratios 0.5, 1, 2 -> geometric mean 1, exp(± t(0.975, df 2) · ln 2 / √3)', () => {
    const r = pairedRatio([2, 1, 1], [1, 1, 2]);
    const half = 4.302652729911275 * (Math.log(2) / Math.sqrt(3));
    expect(r.ratio).toBeCloseTo(1, 10);
    expect(r.lo).toBeCloseTo(Math.exp(-half), 6);
    expect(r.hi).toBeCloseTo(Math.exp(half), 6);
    expect(r.significant).toBe(false);
  });

  it('a host drifting in speed, both sides of each pair alike: a steady 0.8 × is found, and significant', () => {
    const ref = [16, 21, 18, 25, 17];
    const r = pairedRatio(ref, ref.map((x, i) => x * (i % 2 ? 0.78 : 0.82)));
    expect(r.ratio!).toBeGreaterThan(0.79);
    expect(r.ratio!).toBeLessThan(0.81);
    expect(r.hi!).toBeLessThan(1);
    expect(r.significant).toBe(true);
  });

  it('the same drift but pairs that disagree (1.00 × in the mean): not significant', () => {
    const r = pairedRatio([15.9, 18.46, 16.94], [17.93, 12.66, 20.85]);
    expect(r.lo!).toBeLessThan(1);
    expect(r.hi!).toBeGreaterThan(1);
    expect(r.significant).toBe(false);
  });

  it('leaves out a pair with a missing or non-positive value, and says why it gives no interval', () => {
    expect(pairedRatio([10, NaN, 0], [5, 4, 3])).toMatchObject({ pairs: 1, ratio: 0.5, lo: null, note: 'needs at least 2 pairs' });
    expect(pairedRatio([], [])).toMatchObject({ pairs: 0, ratio: null, note: 'no pair with both values' });
  });
});
