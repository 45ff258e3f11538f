import { correlationInterval, spearman } from '../../src/stats/rank-correlation';

// Expected values: Spearman's worked example (IQ against hours of television a week, ten people;
// Wikipedia "Spearman's rank correlation coefficient", Example): Σd² = 194, ρ = 1 − 6·194/(10·99)
// = −29/165. Fisher's interval for r = 0.5, n = 30 (the textbook case, e.g. Howell, Statistical
// Methods for Psychology, §9.11): z = 0.5493 ± 1.96/√27 → [0.170, 0.729]. Bonett & Wright (2000)
// widen the standard error for ρ by √(1 + ρ²/2).
const IQ = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
const TV = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];

describe("Spearman's ρ and its interval", () => {
  it('the worked example: ρ = −29/165 over 10 pairs', () => {
    const r = spearman(IQ, TV);
    expect(r.n).toBe(10);
    expect(r.rho).toBeCloseTo(-29 / 165, 12);
  });

  it('ties take the mean of their ranks: x = 1, 2, 2, 3 against 1, 2, 3, 4 gives 4.5/√22.5', () => {
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4]).rho).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it("Fisher's interval for r = 0.5, n = 30 is [0.170, 0.729]", () => {
    const ci = correlationInterval(0.5, 30, 0.95, 'fisher')!;
    expect(ci.lo).toBeCloseTo(0.170, 3);
    expect(ci.hi).toBeCloseTo(0.729, 3);
  });

  it("Bonett–Wright's interval for ρ is Fisher's with the z standard error × √(1 + ρ²/2)", () => {
    const ci = correlationInterval(0.5, 30)!;
    const se = Math.sqrt(1.125 / 27);
    expect(Math.atanh(ci.hi) - Math.atanh(0.5)).toBeCloseTo(1.959963984540054 * se, 10);
    expect(Math.atanh(0.5) - Math.atanh(ci.lo)).toBeCloseTo(1.959963984540054 * se, 10);
    expect(ci.lo).toBeLessThan(0.1704);
  });

  it('pairs with a null side are dropped; a constant side or ≤ 3 pairs has no interval', () => {
    const r = spearman([1, 2, null, 4, 5], [2, 1, 9, 4, 3]);
    expect(r.n).toBe(4);
    expect(spearman([1, 1, 1, 1], [1, 2, 3, 4]).rho).toBeNull();
    expect(spearman([1, 2, 3], [1, 2, 3])).toMatchObject({ n: 3, rho: 1, lo: null, hi: null });
  });
});
