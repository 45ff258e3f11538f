// Where a paper-equivalent search starts, for the findings and the reproduction alike: the newest
// comparable search on this machine (record.ts), else — in the scale model, with multiples
// counted in the nominal unit — the unscaled default scaled to the monolith's CPU there.
import type { Testbed } from '../placement/testbed';
import type { Capacity } from './loads';
import { NOMINAL_CAPACITY, scaledPaperStart, type PaperStart } from './plan';
import { previousPaperStart } from './record';

export interface SearchStartAt {
  capacity: Capacity;
  /** The client timeout of the search's runs (EFR depends on it). */
  timeoutS: number;
  testbed?: Testbed;
  /** The plan's default start on an unscaled testbed. */
  unscaled: PaperStart;
  /** The plan's scale model (asked only when needed: it reads every variant's spec). */
  model: () => { s: number; sutCpus: number };
}

/** undefined: the plan's own default start. */
export function searchStart(at: SearchStartAt): PaperStart | undefined {
  const guide = previousPaperStart({ rate: at.capacity.rate, timeoutS: at.timeoutS, testbed: at.testbed });
  if (guide) return guide;
  // A calibrated capacity in the model is the model's own unit: the unscaled multiple stands as it is.
  if (at.testbed !== 'scaled' || at.capacity !== NOMINAL_CAPACITY) return undefined;
  return scaledPaperStart(at.unscaled, at.model());
}
