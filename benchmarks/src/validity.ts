// A run measures the system only if the load generator kept up (DESIGN §1.4): k6 must not be
// CPU-saturated for a sustained share of the run, nor drop arrivals for lack of VUs.
import type { ResourceSummary } from './resource-summary';

export interface ValidityRules {
  /** k6 CPU above this (100 = one core) counts as a saturated sample. */
  k6SaturationPct: number;
  /** INVALID when more than this share of samples are saturated... */
  maxSaturatedShare: number;
  /** ...and at least this many of them: one busy second (k6 starting its VUs) is not a sustained saturation. */
  minSaturatedSamples: number;
}

export const DEFAULT_VALIDITY: ValidityRules = { k6SaturationPct: 90, maxSaturatedShare: 0.1, minSaturatedSamples: 3 };

export interface Validity {
  valid: boolean;
  reasons: string[];
}

export function judgeRun(
  input: {
    droppedIterations: number;
    k6ExitCode: number;
    resources: Pick<ResourceSummary, 'k6SaturatedShare' | 'k6CpuMaxPct' | 'samples'>;
    /** The variant was switched or one of its processes restarted during the run. */
    variantChanged?: boolean;
  },
  rules: ValidityRules = DEFAULT_VALIDITY,
): Validity {
  const reasons: string[] = [];
  if (input.droppedIterations > 0) reasons.push(`k6 dropped ${input.droppedIterations} iterations (not enough VUs to keep the arrival rate)`);
  const saturatedSamples = Math.round(input.resources.k6SaturatedShare * input.resources.samples);
  if (input.resources.k6SaturatedShare > rules.maxSaturatedShare && saturatedSamples >= rules.minSaturatedSamples) {
    reasons.push(
      `k6 CPU above ${rules.k6SaturationPct}% of a core in ${(100 * input.resources.k6SaturatedShare).toFixed(0)}% of samples (max ${input.resources.k6CpuMaxPct.toFixed(0)}%)`,
    );
  }
  if (input.variantChanged) reasons.push('the variant was switched or a process restarted during the run (pids changed)');
  if (input.resources.samples === 0) reasons.push('no resource samples were taken');
  // 99 = thresholds crossed: a measurement, not a harness failure. Anything else is.
  if (input.k6ExitCode !== 0 && input.k6ExitCode !== 99) reasons.push(`k6 exited with code ${input.k6ExitCode}`);
  return { valid: reasons.length === 0, reasons };
}
