import { difference } from '@shellgrade/stats';
import { compareRuns } from '../../src/findings/comparison';
import { contrast } from '../../src/findings/contrast';
import { combine, judgePart } from '../../src/findings/verdict';

const A = [100, 103, 97];
/** A comparison at the default ±10 % margin. */
const cmp = (a: number[], b: number[]) => compareRuns(a, b, 0.1);
const shift = (xs: number[], d: number) => xs.map((x) => x + d);

describe('verdict rules', () => {
  it('higher/lower: reproduced when the interval lies on the claimed side, refuted on the other', () => {
    expect(judgePart(cmp(A, shift(A, 30)), 'higher').verdict).toBe('reproduced');
    expect(judgePart(cmp(A, shift(A, -30)), 'higher').verdict).toBe('refuted');
    expect(judgePart(cmp(A, shift(A, -30)), 'lower').verdict).toBe('reproduced');
  });

  it('higher/lower: refuted when TOST puts B − A within ±10% although the 95% interval includes 0 (no practical difference)', () => {
    const c = cmp(A, shift(A, 1));
    expect(c.welch.lo! < 0 && c.welch.hi! > 0).toBe(true);
    const v = judgePart(c, 'lower');
    expect(v.verdict).toBe('refuted');
    expect(v.why).toMatch(/^TOST ±10\.1 \(±10%\): p = [\d.e-]+: no practical difference; 95% CI \[/);
  });

  it("a claim's own margin: the same runs are equivalent at ±10% and not at ±2%", () => {
    expect(compareRuns(A, shift(A, 1), 0.1).tost!.equivalent).toBe(true);
    expect(judgePart(compareRuns(A, shift(A, 1), 0.02), 'lower').verdict).toBe('inconclusive');
  });

  it('every comparison carries the rank test: Mann–Whitney p and Cliff\'s δ, and says when 3 + 3 runs cannot reach 5 %', () => {
    const v = judgePart(cmp(A, shift(A, 30)), 'higher');
    expect(v.why).toContain("Mann–Whitney p = 0.100 (exact), Cliff's δ = 1.00 (large) — the rank test does not find a difference at 5 % (with 3 and 3 runs it cannot: its smallest p is 0.100)");
  });

  it('higher/lower: inconclusive when the interval straddles 0 beyond the band, with runs to settle it', () => {
    const v = judgePart(cmp([100, 140, 60], [110, 150, 70]), 'higher');
    expect(v.verdict).toBe('inconclusive');
    expect(v.settle).toMatch(/^about \d+ valid runs per side/);
  });

  it('same: reproduced within the band, refuted beyond it, inconclusive in between', () => {
    expect(judgePart(cmp(A, shift(A, 2)), 'same').verdict).toBe('reproduced');
    expect(judgePart(cmp(A, shift(A, 40)), 'same').verdict).toBe('refuted');
    expect(judgePart(cmp([100, 130, 70], [100, 130, 70]), 'same').verdict).toBe('inconclusive');
  });

  it('inconclusive when both sides are 0 at this load (nothing failed): a higher peak would test it', () => {
    const v = judgePart(cmp([0, 0, 0], [0, 0, 0]), 'lower');
    expect(v).toEqual({ verdict: 'inconclusive', why: 'both sides are 0 at this load', settle: 'a load level at which the baseline fails or slows' });
  });

  it('inconclusive without an interval (one valid run)', () => {
    expect(judgePart(cmp([100], shift(A, 50)), 'higher')).toMatchObject({ verdict: 'inconclusive', settle: 'at least 2 valid runs of each side (now 1 and 3)' });
  });

  it('combines: all reproduced -> reproduced; any refuted -> refuted; else inconclusive', () => {
    expect(combine(['reproduced', 'reproduced'])).toBe('reproduced');
    expect(combine(['reproduced', 'inconclusive', 'refuted'])).toBe('refuted');
    expect(combine(['reproduced', 'inconclusive'])).toBe('inconclusive');
    expect(combine([])).toBe('inconclusive');
  });
});

describe('contrast (2 × 2 interaction)', () => {
  it('two groups with coefficients −1, +1 give the Welch interval of their difference', () => {
    const a = [1, 2, 3];
    const b = [4, 5, 6];
    const c = contrast([
      { xs: a, c: -1 },
      { xs: b, c: 1 },
    ])!;
    const d = difference(a, b);
    expect(c.value).toBeCloseTo(d.diff!, 10);
    expect(c.lo).toBeCloseTo(d.lo!, 10);
    expect(c.hi).toBeCloseTo(d.hi!, 10);
  });

  it('a missing group gives nothing; one run a group gives a value without interval', () => {
    expect(contrast([{ xs: [], c: 1 }])).toBeNull();
    expect(contrast([{ xs: [5], c: 1 }, { xs: [1, 2], c: -1 }])).toEqual({ value: 3.5, lo: null, hi: null, significant: false });
  });
});
