import { difference } from './difference';

describe("difference (Welch's t interval over runs)", () => {
  it('gives the textbook interval for a known case: A = 1,2,3 vs B = 4,5,6 -> 3 ± t(0.975, df 4) · sqrt(2/3)', () => {
    const d = difference([1, 2, 3], [4, 5, 6]);
    const half = 2.7764451051977987 * Math.sqrt(2 / 3);
    expect(d.diff).toBeCloseTo(3, 10);
    expect(d.lo).toBeCloseTo(3 - half, 6);
    expect(d.hi).toBeCloseTo(3 + half, 6);
    expect(d.relative).toBeCloseTo(1.5, 10);
    expect(d.significant).toBe(true);
  });

  it('identical runs are not significantly different', () => {
    const runs = [120, 131, 118, 125, 122];
    const d = difference(runs, [...runs]);
    expect(d.diff).toBe(0);
    expect(d.lo!).toBeLessThan(0);
    expect(d.hi!).toBeGreaterThan(0);
    expect(d.significant).toBe(false);
  });

  it('a shifted distribution is significant, the interval covering the shift', () => {
    const a = [120, 131, 118, 125, 122];
    const d = difference(a, a.map((x) => x + 40));
    expect(d.significant).toBe(true);
    expect(d.lo!).toBeLessThan(40);
    expect(d.hi!).toBeGreaterThan(40);
  });

  it('a shift inside the run-to-run noise is not significant', () => {
    const d = difference([100, 140, 90, 150], [105, 145, 95, 155]);
    expect(d.significant).toBe(false);
  });

  it('one run on a side gives no interval and says why', () => {
    const d = difference([100], [200, 210]);
    expect(d.lo).toBeNull();
    expect(d.significant).toBe(false);
    expect(d.note).toMatch(/at least 2 valid runs/);
  });

  it('constant but different sides are significant (zero spread), equal constants are not', () => {
    expect(difference([5, 5, 5], [6, 6, 6]).significant).toBe(true);
    expect(difference([5, 5, 5], [5, 5, 5]).significant).toBe(false);
  });
});
