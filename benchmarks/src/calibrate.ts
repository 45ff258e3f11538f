// `bench calibrate`: steps the arrival peak on one variant (one short run per step) until the
// first step that fails the SLO, then bisects between the last sustained and that first failed
// rate to 1 it/s (issue 31 item 6), so the sustainable rate is one number — the basis for sizing
// the `small` profile and for comparing variants (benchmarks/README.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { meetsSlo } from './findings/loads';
import { phase } from './log';
import { currentBootId } from './machine-speed';
import { resultsDir } from './paths';
import type { PlacementRequest } from './placement/plan';
import { makeRunId, runTest } from './run-test';
import type { Aggregated } from './types';
import { exclusive } from './harness-lock';

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
  /** Within the SLO (SPS p95 ≤ 2 s, 0 KO, a VALID run) and keeping up with the arrivals. */
  sustained: boolean;
  /** How the rate was chosen: one of the ascending steps, or a bisection probe between them. */
  phase: 'step' | 'bisection';
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
  /** Every probe in the order it ran: the ascending steps, then the bisection's. */
  steps: CalibrationStep[];
  /** Highest peak that still kept up; null when even the first step saturated. */
  recommendedPeak: number | null;
  /** Highest rate within the SLO, to 1 it/s (bisected); null when even 1 it/s fails; the last step when none failed (a lower bound). */
  sustainableRate: number | null;
  /** The first rate that failed the SLO (bisected down to sustainableRate + 1); null when no step failed. */
  firstFailedRate: number | null;
  /** Where the steps ran: 'on' when k6 and the system had CPUs apart (the findings read only such a rate); absent in older files. */
  placement?: { state: 'on' | 'off' | 'unavailable'; clientCpus: number[]; sutCpus: number[] };
  /** INVALID attempts measured again (measuredValid), by run id: not among the steps. Absent in older files. */
  setAsideRuns?: string[];
  /** The boot it was measured on (currentBootId): the findings reuse a capacity only on the same boot. Absent in older files. */
  bootId?: string | null;
}

/**
 * A step is past saturation when an SPS fails or SPS throughput lags the arrivals by more than
 * 10% (or the run is INVALID). Rising latency before that is queueing: near saturation.
 */
export function stepOf(peak: number, a: Aggregated, phase: CalibrationStep['phase'] = 'step'): CalibrationStep {
  const m = (k: string): number | null => a.paper[k]?.mean ?? null;
  const efr = m('stages.hold.sps.efr_paper') ?? m('sps.efr_paper');
  const p95 = m('stages.hold.sps.p95') ?? m('sps.p95');
  const tput = m('sps.throughputHold');
  const saturated = !a.valid || (efr ?? 1) > 0 || (tput ?? 0) < 0.9 * peak;
  const cpu = a.resources.machineCpuSPerOk?.mean;
  const step = {
    peak,
    runId: a.meta.runId,
    valid: a.valid,
    spsEfr: efr,
    spsP95Ms: p95,
    spsThroughputHold: tput,
    rac: m('stages.hold.RAC') ?? m('RAC'),
    machineCpuSPerOkMs: cpu === undefined ? null : cpu * 1000,
    saturated,
    phase,
  };
  return { ...step, sustained: !saturated && meetsSlo(step) };
}

/** The highest peak before the first saturated one, over every probe in ascending rate. */
export function recommend(steps: Pick<CalibrationStep, 'peak' | 'saturated'>[]): number | null {
  let best: number | null = null;
  for (const s of [...steps].sort((x, y) => x.peak - y.peak)) {
    if (s.saturated) break;
    best = s.peak;
  }
  return best;
}

export interface Bisection {
  /** Highest rate that sustained the SLO (the lower bound it started from when nothing between passed; 0: none). */
  sustained: number;
  /** Lowest rate that failed it. */
  failed: number;
  /** The rates probed, in order. */
  probed: number[];
}

/**
 * Bisects on the SLO between `sustained` (passed; 0 when even the first step failed) and `failed`
 * (failed) until they are `resolutionItS` apart, probing whole it/s (k6's arrival targets are
 * integers). Assumes the SLO holds below some rate and fails above it (one crossing).
 */
export async function bisectSustainable(sustained: number, failed: number, sustains: (rate: number) => Promise<boolean>, resolutionItS = 1): Promise<Bisection> {
  const probed: number[] = [];
  let low = sustained;
  let high = failed;
  while (high - low > resolutionItS) {
    const mid = Math.floor((low + high) / 2);
    probed.push(mid);
    if (await sustains(mid)) low = mid;
    else high = mid;
  }
  return { sustained: low, failed: high, probed };
}

/** Factors of the predicted saturation rate to step through: dense around it, where the answer is. */
export const MODEL_STEP_FACTORS = [0.5, 0.7, 0.85, 1, 1.15, 1.3, 1.5];

/** Peaks to try around a predicted saturation rate, in whole it/s (k6's arrival-rate targets are integers), ascending and distinct. */
export function peaksAround(rate: number, factors = MODEL_STEP_FACTORS): number[] {
  const peaks = factors.map((f) => Math.max(1, Math.round(rate * f)));
  return [...new Set(peaks)].sort((a, b) => a - b);
}

/**
 * A probe measured again when its run was INVALID (foreign CPU load, a client over its share,
 * dropped iterations: the measurement failed, not necessarily the system), up to `retakes` times.
 * Without the retake one stray process during a step reads as "fails the SLO" and bisects the
 * capacity — and every findings level after it — far below the truth. The set-aside attempts are
 * returned so the calibration can say so.
 */
export async function measuredValid<S extends { valid: boolean }>(measure: (attempt: number) => Promise<S>, retakes = 1): Promise<{ step: S; setAside: S[] }> {
  const setAside: S[] = [];
  let step = await measure(0);
  while (!step.valid && setAside.length < retakes) {
    setAside.push(step);
    step = await measure(setAside.length);
  }
  return { step, setAside };
}

export function calibrate(input: { variant: string; peaks: number[]; rampS: number; holdS: number; predicted?: PredictedSaturation; kdfCost?: number; placement?: PlacementRequest }): Promise<Calibration> {
  return exclusive(`bench calibrate ${input.variant}`, () => calibrateNow(input));
}

async function calibrateNow(input: { variant: string; peaks: number[]; rampS: number; holdS: number; predicted?: PredictedSaturation; kdfCost?: number; placement?: PlacementRequest }): Promise<Calibration> {
  const steps: CalibrationStep[] = [];
  let baselineGradingsPerS: number | null = null;
  let placement: Calibration['placement'];
  const setAsideRuns: string[] = [];
  // A capacity is measured with the client on CPUs of its own unless told otherwise: k6 sharing
  // the cores would lower the rate every placed findings level is a multiple of.
  const placementAsked: PlacementRequest = { mode: 'on', ...input.placement };
  const measure = async (peak: number, phaseOf: CalibrationStep['phase'], attempt: number): Promise<CalibrationStep> => {
    phase(`calibrate ${input.variant}: ${phaseOf} at ${peak}/s${attempt ? ` (measured again: the last attempt was INVALID)` : ''}`);
    const runId = `${makeRunId(input.variant, 'calibrate', undefined, undefined, input.kdfCost)}-p${peak}`;
    const a = await runTest({ variant: input.variant, profile: 'small', runs: 1, peak, rampS: input.rampS, holdS: input.holdS, runId, keepUp: true, kdfCost: input.kdfCost, placement: placementAsked });
    const placed = a.meta.placement;
    if (placed) placement = { state: placed.state, clientCpus: placed.clientCpus, sutCpus: placed.sutCpus };
    // The sandboxed baseline each step copied into its run folder (benchmarks/src/baseline.ts).
    baselineGradingsPerS = a.meta.baseline?.best.gradingsPerS ?? baselineGradingsPerS;
    if (!a.valid) phase(`peak ${peak}/s: INVALID (${a.runLines.flatMap((r) => r.reasons ?? []).join('; ') || 'see its aggregated.json'})`);
    return stepOf(peak, a, phaseOf);
  };
  const probe = async (peak: number, phaseOf: CalibrationStep['phase']): Promise<CalibrationStep> => {
    const { step, setAside } = await measuredValid((attempt) => measure(peak, phaseOf, attempt));
    setAsideRuns.push(...setAside.map((s) => s.runId));
    steps.push(step);
    phase(`peak ${peak}/s: ${step.sustained ? 'within the SLO' : 'FAILS the SLO'} (SPS EFR ${step.spsEfr}, SPS p95 ${step.spsP95Ms?.toFixed(0)} ms, SPS ${step.spsThroughputHold?.toFixed(2)}/s)`);
    return step;
  };
  let lastSustained = 0;
  let firstFailed: number | null = null;
  for (const peak of input.peaks) {
    if ((await probe(peak, 'step')).sustained) lastSustained = peak;
    else {
      firstFailed = peak;
      break;
    }
  }
  let sustainableRate: number | null = lastSustained || null;
  if (firstFailed !== null) {
    const b = await bisectSustainable(lastSustained, firstFailed, async (rate) => (await probe(rate, 'bisection')).sustained);
    sustainableRate = b.sustained || null;
    firstFailed = b.failed;
  }
  const { placement: _asked, ...asked } = input;
  const result: Calibration = { ...asked, baselineGradingsPerS, steps, recommendedPeak: recommend(steps), sustainableRate, firstFailedRate: firstFailed, placement, bootId: currentBootId(), setAsideRuns };
  // With --kdf-cost the name ends -calibration-kdfN.json: a soak's rate never comes from a cheap-login calibration.
  const file = join(resultsDir(), `${makeRunId(input.variant, 'calibration', undefined, undefined, input.kdfCost)}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  phase(`wrote ${file}`);
  return result;
}

export function calibrationMarkdown(c: Calibration): string {
  const rows = c.steps.map(
    (s) =>
      `| ${s.phase} | ${s.peak} | ${s.spsThroughputHold?.toFixed(2) ?? 'n/a'} | ${s.spsEfr === null ? 'n/a' : (100 * s.spsEfr).toFixed(2) + '%'} | ${s.spsP95Ms?.toFixed(0) ?? 'n/a'} | ${s.rac === null ? 'n/a' : (100 * s.rac).toFixed(2) + '%'} | ${s.machineCpuSPerOkMs?.toFixed(1) ?? 'n/a'} | ${s.valid ? 'VALID' : 'INVALID'} | ${s.sustained ? 'within the SLO' : s.saturated ? 'saturated' : 'over the SLO'} |`,
  );
  return [
    `### Calibration of ${c.variant} (${c.rampS}s ramp + ${c.holdS}s hold per step${c.kdfCost !== undefined ? `; passwords hashed with scrypt N = 2^${c.kdfCost}` : ''})`,
    '',
    '| probe | peak (it/s) | SPS OK/s at peak | SPS EFR | SPS p95 (ms) | RAC | CPU ms per OK (machine − client) | run | verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    `Sustainable rate (SPS p95 ≤ 2 s, 0 KO; bisected to 1 it/s): ${sustainableText(c)}. Grader-only baseline: ${c.baselineGradingsPerS?.toFixed(2) ?? 'absent'} gradings/s. Recommended small peak: ${c.recommendedPeak ?? 'below the first step'}.`,
    ...(c.predicted
      ? ['', `Model (npm run models, demands from ${c.predicted.demandsFrom}): saturation predicted at ${c.predicted.rate.toFixed(2)} it/s, bottleneck ${c.predicted.station}; measured: last step keeping up ${c.recommendedPeak ?? 'none'}.`]
      : []),
  ].join('\n');
}

function sustainableText(c: Calibration): string {
  if (c.firstFailedRate === null) return `at least ${c.sustainableRate ?? 'n/a'} it/s (no step failed)`;
  if (c.sustainableRate === null) return `below 1 it/s (1 it/s fails)`;
  return `**${c.sustainableRate} it/s** (${c.firstFailedRate} it/s fails)`;
}
