// What one findings run costs in wall time, priced from its parts: k6 initialising its VUs, the
// load (ramp + hold), the tail (started users finishing scenario R: five think times below
// capacity; past it, up to k6's graceful stop while slowed users time out), the drain (a
// backlog no client was told of is stopped after DISCARD_UNTOLD_AFTER_S, and the variant with it,
// so the next run brings it up again), and the pause between runs. The VU count and the graceful
// stop are k6/lib/config.js's (scenarioOptions; a unit test holds the two to each other).
import { bisection } from './loads';

/**
 * A backlog no client was told of (its SPS unanswered) is stopped with the processes after this
 * long instead of graded: past the paper-equivalent load a blocking variant otherwise grades for
 * 90–120 s after every run (record full-20261127), a third of its run's time.
 */
export const DISCARD_UNTOLD_AFTER_S = 10;

/** Measured here: 11,136 VUs took 55 s to start on the client's CPU (record full-20261127). */
export const VU_INIT_S = 0.005;
/** Bring-up, seeding and warm-up of a variant: p90 of 73 measured (median 9 s, max 23 s). */
export const BRING_UP_S = 15;
/** Audit, summaries, resource files after a run: measured 1–3 s. */
export const SETTLE_S = 3;
/** Requests of one iteration besides its think times, seconds (k6/lib/config.js busyS). */
const REQUEST_S = 2;

export interface RunShape {
  /** Arrival rate held, it/s. */
  peak: number;
  /** Above the sustainable rate: iterations slow down, and a backlog may be left. */
  overloaded: boolean;
  rampS: number;
  holdS: number;
  /** Think time between the requests of scenario R (the profile's pauseS). */
  thinkS: number;
  /** Client request timeout. */
  timeoutS: number;
  /** Pause after the run (the protocol's pauseS). */
  betweenS: number;
  /** The drain's bound for a backlog no client was told of. */
  discardS: number;
}

/** Iterations the ramp (1 → peak) and hold start: k6/lib/config.js iterationsScheduled. */
export function iterationsScheduled(s: Pick<RunShape, 'peak' | 'rampS' | 'holdS'>): number {
  const area = ((1 + s.peak) / 2) * s.rampS + s.peak * s.holdS;
  return Math.max(2, Math.ceil(area * 1.01) + 2);
}

/** VUs k6 initialises before the load: enough for one timeout per iteration, never more than it starts. */
export function vusOf(s: RunShape): number {
  const cover = Math.max(2, Math.ceil(s.peak * (5 * s.thinkS + REQUEST_S + s.timeoutS)));
  return Math.min(cover, iterationsScheduled(s));
}

/** k6's graceful stop: how long started users may still take after the last arrival. */
export function gracefulStopS(s: Pick<RunShape, 'thinkS' | 'timeoutS'>): number {
  return Math.ceil(5 * s.thinkS + 2 * s.timeoutS);
}

export interface RunPrice {
  initS: number;
  loadS: number;
  tailS: number;
  /** Drain and the bring-up a discarded backlog costs the next run (overloaded runs only). */
  afterS: number;
  totalS: number;
}

/** Seconds one run takes at most (overloaded: its users all run into the graceful stop). */
export function priceRun(s: RunShape): RunPrice {
  const initS = vusOf(s) * VU_INIT_S;
  const loadS = s.rampS + s.holdS;
  const tailS = s.overloaded ? gracefulStopS(s) : 5 * s.thinkS + REQUEST_S;
  const afterS = (s.overloaded ? s.discardS + BRING_UP_S : 0) + SETTLE_S + s.betweenS;
  return { initS, loadS, tailS, afterS, totalS: Math.ceil(initS + loadS + tailS + afterS) };
}

/**
 * The calibration a findings run makes first where naked-mon has none (calibrate-first.ts):
 * ascending steps bracketing the rate found on machines of this kind (8 it/s, 2026-11-27) until
 * one fails the SLO, then bench calibrate's bisection (loads.ts bisectionResolution); its defaults otherwise (10 s
 * ramp + 30 s hold of the small profile, k6's 60 s request timeout).
 */
export const CALIBRATION = { peaks: [4, 8, 12, 16], rampS: 10, holdS: 30, timeoutS: 60 } as const;

/** Probes of the worst case: every step sustained but the last, then a bisection failing each probe — between the two steps (or below the first) where that takes most. */
export function calibrationProbes(peaks: readonly number[] = CALIBRATION.peaks): { sustained: number; failed: number } {
  const failingEach = (low: number, high: number): number => {
    const steps = bisection(low, high);
    let probes = 0;
    for (let step = steps.next(); !step.done; step = steps.next(false)) probes++;
    return probes;
  };
  return { sustained: peaks.length - 1, failed: 1 + Math.max(...peaks.map((p, i) => failingEach(i ? peaks[i - 1]! : 0, p))) };
}

/** Seconds the calibration takes at most: a sustained step ends with its users, a failed one runs into k6's graceful stop and drains its backlog. */
export function calibrationPriceS(thinkS: number, peaks: readonly number[] = CALIBRATION.peaks): number {
  const shape = (overloaded: boolean): RunShape => ({ peak: peaks[peaks.length - 1]!, overloaded, rampS: CALIBRATION.rampS, holdS: CALIBRATION.holdS, thinkS, timeoutS: CALIBRATION.timeoutS, betweenS: 0, discardS: DISCARD_UNTOLD_AFTER_S });
  const { sustained, failed } = calibrationProbes(peaks);
  return BRING_UP_S + sustained * priceRun(shape(false)).totalS + failed * priceRun(shape(true)).totalS;
}
