// A findings run on a machine with no calibration of naked-mon (a fresh one) measures the
// capacity its levels are multiples of before anything else, with the run's own placement,
// instead of stopping with "run bench calibrate first": the time a full run promises then holds
// from a fresh clone. The steps and their price are pricing.ts's CALIBRATION.
import { calibrate } from '../calibrate';
import { resultsDir } from '../paths';
import type { PlacementRequest } from '../placement/plan';
import { CAPACITY_VARIANT, measuredCapacity, type Capacity } from './loads';
import { CALIBRATION } from './pricing';

/** Calibrates naked-mon (placed as asked) and returns the capacity it found; throws when even the lowest rate fails. */
export async function calibrateFirst(placement: PlacementRequest | undefined): Promise<Capacity> {
  await calibrate({ variant: CAPACITY_VARIANT, peaks: [...CALIBRATION.peaks], rampS: CALIBRATION.rampS, holdS: CALIBRATION.holdS, placement });
  const capacity = measuredCapacity(resultsDir(), { placed: placement?.mode !== 'off' });
  if (!capacity) throw new Error(`${CAPACITY_VARIANT}'s calibration found no rate within the SLO (SPS p95 ≤ 2 s, 0 KO) down to 1 it/s (its calibration file is in results/): the findings need one`);
  return capacity;
}
