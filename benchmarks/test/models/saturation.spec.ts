// Predicted vs measured saturation over presets: the measured bracket from calibration steps, the
// model's throughput min(offered, saturation) at each step, and the agreement, worked by hand.
import type { Calibration, CalibrationStep } from '../../src/calibrate';
import { demandsFor, saturationAgreement, saturationMarkdown, saturationRow } from '../../src/models/saturation';

const step = (peak: number, spsPerS: number, saturated: boolean, valid = true): CalibrationStep => ({
  peak, runId: `r-${peak}`, valid, spsEfr: 0, spsP95Ms: 500, spsThroughputHold: spsPerS, rac: 0, machineCpuSPerOkMs: 20, saturated,
  sustained: valid && !saturated, phase: 'step',
});

const calibration = (variant: string, steps: CalibrationStep[]): Calibration => {
  const firstSaturated = steps.findIndex((s) => s.saturated);
  const keptUp = (firstSaturated === -1 ? steps : steps.slice(0, firstSaturated)).at(-1)?.peak ?? null;
  const firstFailed = steps.find((s) => !s.sustained)?.peak ?? null;
  return { variant, rampS: 10, holdS: 30, baselineGradingsPerS: 24, steps, recommendedPeak: keptUp, sustainableRate: keptUp, firstFailedRate: firstFailed };
};

const predicted = (rate: number) => ({ rate, station: 'exercise', demandsFrom: 'results/d' });

describe('predicted vs measured saturation', () => {
  it('brackets the measured rate between the last peak kept up and the first saturated one', () => {
    const row = saturationRow('c.json', calibration('msa-1-2', [step(6, 6, false), step(8, 7.9, false), step(10, 8.2, true)]), predicted(9));
    expect(row).toMatchObject({ measuredKeptUp: 8, measuredFirstSaturated: 10, withinBracket: true });
    expect(row.relError).toBeCloseTo(0.125, 12);
    // The model's throughput is the offered rate below its saturation rate, the saturation rate past it.
    expect(row.steps.map((s) => s.predictedSpsPerS)).toEqual([6, 8, 9]);
  });

  it('says a prediction outside the bracket is outside, and a calibration that saturated at once has no rate', () => {
    expect(saturationRow('c', calibration('a', [step(4, 4, false), step(5, 4, true)]), predicted(6)).withinBracket).toBe(false);
    expect(saturationRow('c', calibration('a', [step(4, 4, false), step(5, 4, true)]), predicted(3.5)).withinBracket).toBe(false);
    const none = saturationRow('c', calibration('a', [step(4, 2, true)]), predicted(3));
    expect(none).toMatchObject({ measuredKeptUp: null, relError: null, withinBracket: null });
    // No saturated step: the true rate lies above the last peak, any prediction at or past it fits.
    expect(saturationRow('c', calibration('a', [step(4, 4, false), step(6, 6, false)]), predicted(9)).withinBracket).toBe(true);
  });

  it('ranks presets by saturation (Spearman ρ) and scores SPS/s over every valid step (MAE / measured range)', () => {
    const rows = [
      saturationRow('a', calibration('naked-mon', [step(4, 4, false), step(6, 5, true)]), predicted(5)),
      saturationRow('b', calibration('mon-x2', [step(6, 6, false), step(8, 7, true)]), predicted(7)),
      saturationRow('c', calibration('msa-1-2', [step(8, 8, false), step(10, 9, true, false)]), predicted(9)),
    ];
    const a = saturationAgreement(rows);
    // predicted 5 7 9 vs kept up 4 6 8: same ranking, each 1 it/s high.
    expect(a.saturation).toMatchObject({ n: 3, spearmanRho: 1 });
    expect(a.saturation.mae).toBeCloseTo(1, 12);
    // Steps (predicted, measured): (4,4) (5,5) (6,6) (7,7) (8,8); the INVALID one is left out.
    expect(a.throughput).toMatchObject({ n: 5, mae: 0, normalizedMae: 0 });
    expect(saturationMarkdown(a)).toContain('| msa-1-2 | 9.00 | exercise | 8.0 | 10.0 | +12.5 % | yes |');
  });

  it('a step whose SPS p95 exceeds the SLO is not sustained, even when the calibration said it kept up', () => {
    const slow = { ...step(10, 10, false), spsP95Ms: 2500 };
    const c = calibration('mon-x2', [step(8, 8, false), slow, step(12, 12, false)]);
    expect(saturationRow('c', c, predicted(9))).toMatchObject({ measuredKeptUp: 8, measuredFirstSaturated: 10 });
    expect(saturationRow('c', c, predicted(9), null)).toMatchObject({ measuredKeptUp: 12, measuredFirstSaturated: null });
    // Every step sustained: the rate is only known to lie above the last one.
    expect(saturationMarkdown(saturationAgreement([saturationRow('c', c, predicted(9), null)]))).toContain('none up to 12.0 (censored)');
  });

  it('a reversed ranking gives ρ = −1', () => {
    const rows = [4, 6, 8].map((kept, i) => saturationRow(`f${i}`, calibration(`v${i}`, [step(kept, kept, false), step(kept + 2, kept, true)]), predicted(10 - kept)));
    expect(saturationAgreement(rows).saturation.spearmanRho).toBeCloseTo(-1, 12);
  });
});

describe('demands per topology', () => {
  it("predicts each preset from a run of its own topology, else from the first run given", () => {
    const runs = [{ dir: 'r/msa', topology: 'msa' }, { dir: 'r/mon', topology: 'monolith' }];
    expect(demandsFor('monolith', runs)).toBe('r/mon');
    expect(demandsFor('msa', runs)).toBe('r/msa');
    expect(demandsFor('monolith', [runs[0]])).toBe('r/msa');
    expect(() => demandsFor('msa', [])).toThrow(/no demands run/);
  });
});
