// `bench calibrate`: steps the arrival peak on one variant (one short run per step) and reports
// where it stops keeping up — the basis for sizing the `small` profile (benchmarks/README.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phase } from './log';
import { resultsDir } from './paths';
import { makeRunId, runTest } from './run-test';
import type { Aggregated } from './types';

export interface CalibrationStep {
  peak: number;
  runId: string;
  valid: boolean;
  spsEfr: number | null;
  spsP95Ms: number | null;
  spsThroughputHold: number | null;
  rac: number | null;
  machineCpuSPerOkMs: number | null;
  saturated: boolean;
}

/** The model's saturation rate the steps were placed around (`--from-model`), to set beside the measured one. */
export interface PredictedSaturation {
  rate: number;
  station: string;
  demandsFrom: string;
}

export interface Calibration {
  variant: string;
  predicted?: PredictedSaturation;
  rampS: number;
  holdS: number;
  /** auth.kdfCost of every step when overridden (--kdf-cost), absent at the spec's. */
  kdfCost?: number;
  baselineGradingsPerS: number | null;
  steps: CalibrationStep[];
  /** Highest peak that still kept up; null when even the first step saturated. */
  recommendedPeak: number | null;
}

/**
 * A step is past saturation when an SPS fails or SPS throughput lags the arrivals by more than
 * 10% (or the run is INVALID). Rising latency before that is queueing: near saturation.
 */
export function stepOf(peak: number, a: Aggregated): CalibrationStep {
  const m = (k: string): number | null => a.paper[k]?.mean ?? null;
  const efr = m('stages.hold.sps.efr_paper') ?? m('sps.efr_paper');
  const p95 = m('stages.hold.sps.p95') ?? m('sps.p95');
  const tput = m('sps.throughputHold');
  const saturated = !a.valid || (efr ?? 1) > 0 || (tput ?? 0) < 0.9 * peak;
  const cpu = a.resources.machineCpuSPerOk?.mean;
  return {
    peak,
    runId: a.meta.runId,
    valid: a.valid,
    spsEfr: efr,
    spsP95Ms: p95,
    spsThroughputHold: tput,
    rac: m('stages.hold.RAC') ?? m('RAC'),
    machineCpuSPerOkMs: cpu === undefined ? null : cpu * 1000,
    saturated,
  };
}

export function recommend(steps: CalibrationStep[]): number | null {
  let best: number | null = null;
  for (const s of steps) {
    if (s.saturated) break;
    best = s.peak;
  }
  return best;
}

/** Factors of the predicted saturation rate to step through: dense around it, where the answer is. */
export const MODEL_STEP_FACTORS = [0.5, 0.7, 0.85, 1, 1.15, 1.3, 1.5];

/** Peaks to try around a predicted saturation rate, in whole it/s (k6's arrival-rate targets are integers), ascending and distinct. */
export function peaksAround(rate: number, factors = MODEL_STEP_FACTORS): number[] {
  const peaks = factors.map((f) => Math.max(1, Math.round(rate * f)));
  return [...new Set(peaks)].sort((a, b) => a - b);
}

export async function calibrate(input: { variant: string; peaks: number[]; rampS: number; holdS: number; predicted?: PredictedSaturation; kdfCost?: number }): Promise<Calibration> {
  const steps: CalibrationStep[] = [];
  let baselineGradingsPerS: number | null = null;
  for (const peak of input.peaks) {
    phase(`calibrate ${input.variant}: peak ${peak}/s`);
    const runId = `${makeRunId(input.variant, 'calibrate', undefined, undefined, input.kdfCost)}-p${peak}`;
    const a = await runTest({ variant: input.variant, profile: 'small', runs: 1, peak, rampS: input.rampS, holdS: input.holdS, runId, keepUp: true, kdfCost: input.kdfCost });
    const step = stepOf(peak, a);
    steps.push(step);
    // The sandboxed baseline each step copied into its run folder (benchmarks/src/baseline.ts).
    baselineGradingsPerS = a.meta.baseline?.best.gradingsPerS ?? baselineGradingsPerS;
    phase(`peak ${peak}/s: ${step.saturated ? 'SATURATED' : 'keeps up'} (SPS EFR ${step.spsEfr}, SPS p95 ${step.spsP95Ms?.toFixed(0)} ms, SPS ${step.spsThroughputHold?.toFixed(2)}/s)`);
    if (step.saturated) break;
  }
  const result: Calibration = { ...input, baselineGradingsPerS, steps, recommendedPeak: recommend(steps) };
  // With --kdf-cost the name ends -calibration-kdfN.json: a soak's rate never comes from a cheap-login calibration.
  const file = join(resultsDir(), `${makeRunId(input.variant, 'calibration', undefined, undefined, input.kdfCost)}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  phase(`wrote ${file}`);
  return result;
}

export function calibrationMarkdown(c: Calibration): string {
  const rows = c.steps.map(
    (s) =>
      `| ${s.peak} | ${s.spsThroughputHold?.toFixed(2) ?? 'n/a'} | ${s.spsEfr === null ? 'n/a' : (100 * s.spsEfr).toFixed(2) + '%'} | ${s.spsP95Ms?.toFixed(0) ?? 'n/a'} | ${s.rac === null ? 'n/a' : (100 * s.rac).toFixed(2) + '%'} | ${s.machineCpuSPerOkMs?.toFixed(1) ?? 'n/a'} | ${s.valid ? 'VALID' : 'INVALID'} | ${s.saturated ? 'saturated' : 'keeps up'} |`,
  );
  return [
    `### Calibration of ${c.variant} (${c.rampS}s ramp + ${c.holdS}s hold per step${c.kdfCost !== undefined ? `; passwords hashed with scrypt N = 2^${c.kdfCost}` : ''})`,
    '',
    '| peak (it/s) | SPS OK/s at peak | SPS EFR | SPS p95 (ms) | RAC | CPU ms per OK (machine − client) | run | verdict |',
    '|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    `Grader-only baseline: ${c.baselineGradingsPerS?.toFixed(2) ?? 'absent'} gradings/s. Recommended small peak: ${c.recommendedPeak ?? 'below the first step'}.`,
    ...(c.predicted
      ? ['', `Model (npm run models, demands from ${c.predicted.demandsFrom}): saturation predicted at ${c.predicted.rate.toFixed(2)} it/s, bottleneck ${c.predicted.station}; measured: last step keeping up ${c.recommendedPeak ?? 'none'}.`]
      : []),
  ].join('\n');
}
