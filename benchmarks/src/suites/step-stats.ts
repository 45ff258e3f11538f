// Per-step table of a suite: every request counts in the step its iteration started in (as the
// paper tables count stages), so the steps add up to k6's totals.
import { summarize, type LatencySummary } from './latency';
import { REQUESTS_PER_ITERATION, type IterationSample, type RequestSample } from './samples';

/** A step as k6 ran it (k6/lib/steps.js stepSchedule, read back from k6's summary). */
export interface ScheduledStep {
  index: number;
  rate: number;
  fromS: number;
  holdFromS: number;
  toS: number;
}

export interface StepStats extends LatencySummary {
  index: number;
  rate: number;
  fromS: number;
  toS: number;
  iterations: number;
  /** Requests planned: 10 × iterations started in the step. */
  N: number;
  /** OK / N: the share of planned requests that succeeded (1 − efr_paper). */
  okShare: number | null;
  /** OK requests of the step's iterations per second of the step. */
  okPerS: number;
}

export function stepStats(schedule: ScheduledStep[], requests: RequestSample[], iterations: IterationSample[]): StepStats[] {
  return schedule.map((s) => {
    const its = iterations.filter((i) => i.step === s.index).length;
    const sum = summarize(requests.filter((r) => r.step === s.index));
    const N = REQUESTS_PER_ITERATION * its;
    return { index: s.index, rate: s.rate, fromS: s.fromS, toS: s.toS, iterations: its, N, ...sum, okShare: N ? sum.ok / N : null, okPerS: sum.ok / (s.toS - s.fromS) };
  });
}
