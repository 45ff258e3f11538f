// Per-step table of a suite: every request counts in the step its iteration started in (as the
// paper tables count stages), so the steps add up to k6's totals.
import { summarize, type LatencySummary } from './latency';
import { REQUESTS_PER_ITERATION, type IterationSample, type RequestSample } from './samples';
import type { ScheduledStep } from '../../../k6/lib/steps';

/** A step as k6 ran it (k6/lib/steps.js stepSchedule, read back from k6's summary). */
export type { ScheduledStep };

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
  /** SPS answered OK (the grading itself) and their share of the step's iterations (one SPS each); absent in runs analysed before. */
  spsOk?: number;
  spsOkShare?: number | null;
}

export function stepStats(schedule: ScheduledStep[], requests: RequestSample[], iterations: IterationSample[]): StepStats[] {
  return schedule.map((s) => {
    const its = iterations.filter((i) => i.step === s.index).length;
    const inStep = requests.filter((r) => r.step === s.index);
    const sum = summarize(inStep);
    const N = REQUESTS_PER_ITERATION * its;
    const spsOk = inStep.filter((r) => r.type === 'sps' && r.outcome === 'ok').length;
    return {
      index: s.index, rate: s.rate, fromS: s.fromS, toS: s.toS, iterations: its, N, ...sum,
      okShare: N ? sum.ok / N : null, okPerS: sum.ok / (s.toS - s.fromS), spsOk, spsOkShare: its ? spsOk / its : null,
    };
  });
}
