import { tost } from '../../src/stats/tost';

// TOST (Schuirmann 1987, "A comparison of the two one-sided tests procedure and the power approach
// for assessing the equivalence of average bioavailability", J. Pharmacokinet. Biopharm. 15(6)),
// Welch form as in Lakens (2017), "Equivalence tests: a practical primer for t tests, correlations,
// and meta-analyses", Soc. Psychol. Personal. Sci. 8(4), eqs. (3)–(4): t_L = (M_B − M_A + Δ)/se,
// t_U = (M_B − M_A − Δ)/se with Welch–Satterthwaite df; equivalent when both one-sided p ≤ α.
// Expected values: SciPy 1.17 ttest_ind(equal_var=False) one-sided, on B against A shifted by ∓Δ.
const A = [100, 103, 97, 101, 99];
const B = [102, 104, 99, 103, 100];

describe('TOST (equivalence within ±margin)', () => {
  it('B − A = 1.6 within ±10: both one-sided tests reject (t_L = 8.5055, t_U = −6.1592, df = 7.955)', () => {
    const r = tost(A, B, 10)!;
    expect(r.diff).toBeCloseTo(1.6, 12);
    expect(r.df).toBeCloseTo(7.954932168314555, 9);
    expect(r.tLower).toBeCloseTo(8.505532671238486, 9);
    expect(r.pLower).toBeCloseTo(1.449665568175959e-5, 9);
    expect(r.tUpper).toBeCloseTo(-6.159178830896842, 9);
    expect(r.pUpper).toBeCloseTo(1.387831003316888e-4, 9);
    expect(r.p).toBe(r.pUpper);
    expect(r.equivalent).toBe(true);
  });

  it('not equivalent when the band is narrower than the uncertainty (±2)', () => {
    const r = tost(A, B, 2)!;
    expect(r.equivalent).toBe(false);
    expect(r.p).toBeGreaterThan(0.05);
  });

  it('needs two values a side and a positive margin; constant samples are judged by the difference alone', () => {
    expect(tost([1], B, 10)).toBeNull();
    expect(tost(A, B, 0)).toBeNull();
    expect(tost([5, 5], [6, 6], 2)!.equivalent).toBe(true);
    expect(tost([5, 5], [9, 9], 2)!.equivalent).toBe(false);
  });
});
