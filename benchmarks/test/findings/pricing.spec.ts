/** What a findings run costs (pricing.ts): k6's own VU sizing and graceful stop, and the bound against runs measured here. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, MIN_RATE, rateUnitS, scenarioOptions } from '../../../k6/lib/config.js';
import { arrivalRate, MIN_ARRIVAL_RATE } from '../../src/findings/loads';
import { estimate, PROTOCOLS } from '../../src/findings/plan';
import { BRING_UP_S, CALIBRATION, calibrationPriceS, calibrationProbes, gracefulStopS, priceRun, vusOf, type RunShape } from '../../src/findings/pricing';

const profiles = JSON.parse(readFileSync(join(__dirname, '../../../k6/profiles.json'), 'utf8')) as Record<string, unknown>;

const shape = (o: Partial<RunShape>): RunShape => ({ peak: 128, overloaded: true, rampS: 10, holdS: 30, thinkS: 5, timeoutS: 60, betweenS: 5, discardS: 10, ...o });

describe('findings run pricing', () => {
  it.each([
    { peak: 128, rampS: 10, holdS: 30, timeoutS: 60 },
    { peak: 128, rampS: 5, holdS: 15, timeoutS: 20 },
    { peak: 4, rampS: 10, holdS: 30, timeoutS: 60 },
    { peak: 200, rampS: 60, holdS: 60, timeoutS: 60 },
  ])('prices the VUs and the graceful stop k6 itself sets (peak $peak, $rampS + $holdS s, timeout $timeoutS s)', (o) => {
    const k6 = scenarioOptions(loadConfig({ profile: 'small', pauseS: 5, ...o }, profiles));
    expect(vusOf(shape(o))).toBe(k6.preAllocatedVUs);
    expect(`${gracefulStopS(shape(o))}s`).toBe(k6.gracefulStop);
  });

  it('bounds the runs measured below capacity here (record full-20261127: 0.5× 66–70 s, 1× 68–74 s at 10 s + 30 s)', () => {
    const below = (peak: number) => priceRun(shape({ peak, overloaded: false })).totalS;
    expect(below(4)).toBeGreaterThanOrEqual(70);
    expect(below(8)).toBeGreaterThanOrEqual(74);
    expect(below(8)).toBeLessThanOrEqual(74 * 1.2);
  });

  it("every arrival rate the harness asks for is one k6's scenario takes: the same floor, in tenths per 10 s or whole per second", () => {
    expect(MIN_ARRIVAL_RATE).toBe(MIN_RATE);
    for (let x = 0; x < 40; x += 0.037) expect([1, 10]).toContain(rateUnitS(arrivalRate(x)));
  });

  it('a calibration made first is priced at its worst case: every step sustained but the last, then a bisection failing at each probe', () => {
    // The longest bisection is below the first step (all failing): 2, 1, 0.5 it/s, then 0 and 0.5 are an eighth of 4 apart.
    expect(calibrationProbes([4, 8, 12, 16])).toEqual({ sustained: 3, failed: 4 });
    // Below a first step of 12 it/s: 6, 3, 1.5, 0.8 (then 1 it/s apart); between 12 and 16 only 14, 13 (whole from 10 it/s).
    expect(calibrationProbes([12, 16])).toEqual({ sustained: 1, failed: 5 });
    // The scale model's steps: 1.6, 1.5 between 1.3 and 1.8; 0.7, 0.6, 0.5 between 0.4 and 0.9.
    expect(calibrationProbes([0.4, 0.9, 1.3, 1.8])).toEqual({ sustained: 3, failed: 4 });
    const run = (overloaded: boolean) => priceRun(shape({ peak: 16, overloaded, rampS: CALIBRATION.rampS, holdS: CALIBRATION.holdS, betweenS: 0 })).totalS;
    expect(calibrationPriceS(5)).toBe(BRING_UP_S + 3 * run(false) + 4 * run(true));
    // Measured on a fresh machine (results/findings/full-fresh-20261127): steps 4, 8 (failed), bisected 6, 7 (failed) in 302 s.
    expect(calibrationPriceS(5)).toBeGreaterThanOrEqual(302);
  });

  it('an overloaded run is priced at its users running into the graceful stop, the backlog discarded and the variant brought up again', () => {
    const p = priceRun(shape({}));
    expect(p.loadS).toBe(40);
    expect(p.tailS).toBe(25 + 2 * 60);
    expect(p.afterS).toBe(10 + BRING_UP_S + 3 + 5);
    expect(p.initS).toBeCloseTo(0.005 * vusOf(shape({})), 6);
    expect(priceRun(shape({ timeoutS: 20 })).tailS).toBe(65);
  });

  it('held the quick run of 2026-11-27 (results/findings/quick-20261127, 18 runs all VALID, 27.0 min): every part priced at or above what it took, by less than a quarter', () => {
    // Its cells: the 2 × 2 at 0.5× and the paper level (the quick plan of then; today's runs the paper level only).
    const cells = ['naked-mon', 'naked-mon-async', 'msa-1-1', 'msa-1-1-async'].flatMap((variant) => (['0.5x', 'paper'] as const).map((level) => ({ variant, level })));
    const ran = estimate(PROTOCOLS.quick, cells, 8, 12); // its paper level: 12× = 96 it/s
    const measured = { searchS: 222, roundS: [688, 709], paperRunS: 120, totalS: 1621 };
    expect(ran.searchS - BRING_UP_S).toBeGreaterThanOrEqual(measured.searchS); // two probes; the bring-up came with the first
    for (const r of measured.roundS) {
      expect(ran.roundS).toBeGreaterThanOrEqual(r);
      expect(ran.roundS).toBeLessThanOrEqual(r * 1.25);
    }
    expect(ran.runS['paper']).toBeGreaterThanOrEqual(measured.paperRunS);
    expect(ran.totalMin * 60).toBeGreaterThanOrEqual(measured.totalS);
    expect(ran.totalMin * 60).toBeLessThanOrEqual(measured.totalS * 1.25);
  });

  it('held two full-protocol runs at the paper level (16× = 128 it/s, 60 s timeout) measured here after the cheaper k6 start and backlog discard: 232 and 234 s, bring-up included (342 and 367 s before, without)', () => {
    const paper = estimate(PROTOCOLS.full, [{ variant: 'naked-mon', level: 'paper' }], 8, 16).runS['paper']!;
    for (const measuredS of [232, 234]) {
      expect(paper + BRING_UP_S).toBeGreaterThanOrEqual(measuredS);
      expect(paper).toBeLessThanOrEqual(measuredS * 1.25);
    }
  });
});
