// A findings run on a machine with no calibration of naked-mon (a fresh one) measures the
// capacity its levels are multiples of before anything else, with the run's own placement,
// instead of stopping with "run bench calibrate first": the time a full run promises then holds
// from a fresh clone. The steps and their price are pricing.ts's CALIBRATION (the scale model's:
// plan.ts scaledCalibrationPeaks).
import { basename } from 'node:path';
import { calibrate, type CalibrationInput, type WrittenCalibration } from '../calibrate';
import type { PlacementRequest } from '../placement/plan';
import { CAPACITY_VARIANT, type Capacity } from './loads';
import { CALIBRATION } from './pricing';

/**
 * Calibrates naked-mon (placed as asked) and returns the capacity that calibration found — its
 * own answer, not the newest file a later reader would pick: a scale model's calibration is
 * never the machine's capacity, so reading it back found nothing and the run stopped.
 * Throws when even the lowest rate fails.
 */
export async function calibrateFirst(
  placement: PlacementRequest | undefined,
  peaks: readonly number[] = CALIBRATION.peaks,
  run: (input: CalibrationInput) => Promise<WrittenCalibration> = calibrate,
): Promise<Capacity> {
  const made = await run({ variant: CAPACITY_VARIANT, peaks: [...peaks], rampS: CALIBRATION.rampS, holdS: CALIBRATION.holdS, placement });
  if (made.sustainableRate === null) {
    throw new Error(`${CAPACITY_VARIANT}'s calibration found no rate within the SLO (SPS p95 ≤ 2 s, 0 KO) down to ${Math.min(...made.steps.map((s) => s.peak))} it/s (${basename(made.file)}): the findings need one`);
  }
  return { rate: made.sustainableRate, source: basename(made.file) };
}
