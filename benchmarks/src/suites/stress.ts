// Stress verdict (paper 002: load raised until the system fails completely). The knee is the
// last step of the initial run of steps meeting the SLO (KO ≤ 1 %, p95 ≤ 10 s); the breaking
// point the first step where no more than 10 % of the planned requests succeeded. A grader can
// fail completely while logins and pages still work (nine of R's ten requests): the grading
// breaking point is the first step where no more than 10 % of the iterations got their SPS answered.
import type { StepStats } from './step-stats';

export interface StressThresholds {
  sloKoShare: number;
  sloP95Ms: number;
  brokenOkShare: number;
}

export interface StepMark {
  index: number;
  rate: number;
}

export interface StressVerdict {
  thresholds: StressThresholds;
  /** Last step meeting the SLO with every step before it; null when the first step already missed it. */
  knee: StepMark | null;
  /** First step that failed completely; null when the highest step still served more than brokenOkShare. */
  breakingPoint: StepMark | null;
  /** First step where at most brokenOkShare of the iterations had their SPS answered OK; absent in runs analysed before. */
  gradingBreakingPoint?: StepMark | null;
  steps: { index: number; meetsSlo: boolean; broken: boolean; gradingBroken?: boolean }[];
}

/** A step with no OK request has no p95 and misses the SLO. */
export function meetsSlo(s: StepStats, t: StressThresholds): boolean {
  return s.requests > 0 && (s.koShare ?? 1) <= t.sloKoShare && s.p95 !== null && s.p95 <= t.sloP95Ms;
}

export function isBroken(s: StepStats, t: StressThresholds): boolean {
  return s.N > 0 && (s.okShare ?? 0) <= t.brokenOkShare;
}

export function isGradingBroken(s: StepStats, t: StressThresholds): boolean {
  return s.iterations > 0 && (s.spsOkShare ?? 0) <= t.brokenOkShare;
}

export function stressVerdict(steps: StepStats[], t: StressThresholds): StressVerdict {
  const marks = steps.map((s) => ({ index: s.index, meetsSlo: meetsSlo(s, t), broken: isBroken(s, t), gradingBroken: isGradingBroken(s, t) }));
  let knee: StepMark | null = null;
  for (const s of steps) {
    if (!meetsSlo(s, t)) break;
    knee = { index: s.index, rate: s.rate };
  }
  const mark = (s: StepStats | undefined): StepMark | null => (s ? { index: s.index, rate: s.rate } : null);
  return {
    thresholds: t,
    knee,
    breakingPoint: mark(steps.find((s) => isBroken(s, t))),
    gradingBreakingPoint: mark(steps.find((s) => isGradingBroken(s, t))),
    steps: marks,
  };
}
