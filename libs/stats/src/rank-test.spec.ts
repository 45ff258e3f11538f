import { magnitudeOf, mannWhitney } from './rank-test';

// Wikipedia, "Mann–Whitney U test", section "Illustration of calculation methods": Aesop's six
// tortoises (T) and six hares (H) finish in the order T H H H H H T T T T T H. Counting, per
// tortoise, the hares it beats gives U_T = 11, per hare the tortoises it beats U_H = 25
// (U_T + U_H = 6 × 6); the two-sided 5 % critical value for n = 6, 6 is 5, so U = 11 is not
// significant. Finishing positions are the samples (lower = faster).
const TORTOISES = [1, 7, 8, 9, 10, 11];
const HARES = [2, 3, 4, 5, 6, 12];

describe('Mann–Whitney U (rank test) against textbook values', () => {
  it('Aesop: U_T = 11, U_H = 25, not significant at 5 % (exact two-sided p = 0.3095, as SciPy mannwhitneyu exact)', () => {
    // A = tortoises, B = hares: uB counts pairs where the hare finished after the tortoise (the tortoise won).
    const r = mannWhitney(TORTOISES, HARES)!;
    expect(r.uB).toBe(11);
    expect(r.uA).toBe(25);
    expect(r.method).toBe('exact');
    expect(r.p).toBeCloseTo(0.30952380952380953, 12);
  });

  it('n = 6, 6 at the 5 % critical value U = 5 is significant, U = 6 is not (exact p 0.0411 and 0.0649, as SciPy)', () => {
    // Critical values of U, two-sided α = 0.05 (e.g. Siegel & Castellan 1988, Table J): n1 = n2 = 6 → 5.
    const a = [1, 2, 3, 4, 5, 6];
    const u5 = mannWhitney(a, [1.5, 7, 8, 9, 10, 11])!;
    expect(u5.uA).toBe(5);
    expect(u5.p).toBeCloseTo(0.04112554112554113, 12);
    const u6 = mannWhitney(a, [0.5, 7, 8, 9, 10, 11])!;
    expect(u6.uA).toBe(6);
    expect(u6.p).toBeCloseTo(0.06493506493506493, 12);
  });

  it('ties: average ranks, normal approximation with tie and continuity corrections (SciPy mannwhitneyu asymptotic: U = 4.5, p = 0.06477)', () => {
    const r = mannWhitney([1.2, 2.3, 2.3, 3.1, 4.0], [2.3, 3.5, 4.0, 4.4, 5.1, 6.0])!;
    expect(r.method).toBe('normal');
    expect(r.uA).toBe(4.5);
    expect(r.p).toBeCloseTo(0.06476896969888761, 10);
  });
});

// Cliff (1993), "Dominance statistics: ordinal analyses to answer ordinal questions",
// Psychological Bulletin 114(3): δ = (#(b > a) − #(b < a)) / (n_a n_b). On Aesop's race a hare
// finishes after a tortoise in 11 of the 36 pairs and before it in 25: δ(hares vs tortoises) = −14/36.
// Magnitudes: Romano et al. (2006), |δ| < 0.147 negligible, < 0.33 small, < 0.474 medium, else large.
describe("Cliff's δ", () => {
  it('Aesop: δ = −14/36 for the hares against the tortoises (medium), +14/36 the other way', () => {
    expect(mannWhitney(TORTOISES, HARES)!.cliffsDelta).toBeCloseTo(-14 / 36, 12);
    expect(mannWhitney(HARES, TORTOISES)!.cliffsDelta).toBeCloseTo(14 / 36, 12);
    expect(mannWhitney(TORTOISES, HARES)!.magnitude).toBe('medium');
  });

  it('complete dominance is ±1 (large); identical samples 0 (negligible)', () => {
    expect(mannWhitney([1, 2, 3], [4, 5, 6])!.cliffsDelta).toBe(1);
    expect(mannWhitney([4, 5, 6], [1, 2, 3])!.cliffsDelta).toBe(-1);
    expect(mannWhitney([1, 2, 3], [1, 2, 3])!).toMatchObject({ cliffsDelta: 0, magnitude: 'negligible' });
  });

  it('Romano et al. thresholds', () => {
    expect([0.1, 0.147, 0.32, 0.33, 0.47, 0.474].map(magnitudeOf)).toEqual(['negligible', 'small', 'small', 'medium', 'medium', 'large']);
  });
});
