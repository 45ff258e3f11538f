// `bench calibrate`: steps the arrival peak on one variant (one short run per step) until the
// first step that fails the SLO, then bisects between the last sustained and that first failed
// rate (to an eighth of it, at most 1 it/s), so the sustainable rate is one number — the basis for sizing
// the `small` profile and for comparing variants (benchmarks/README.md). With `--scenario original`
// every probe is one step of the original ShellOnYou load test as its own client plays it (profile
// `original`: no warm-up, a 10 s quiet spell, 10 s ramp + 60 s, no retries) and judged as that
// client sees it: 0 KO of any request over the whole step, SPS p95 ≤ 2 s.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bisection, bisectionResolution, meetsSlo, type BisectionBounds } from './findings/loads';
import { phase } from './log';
import { currentBootId } from './machine-speed';
import { resultsDir } from './paths';
import type { PlacementRequest } from './placement/plan';
import { testbedSummary, type TestbedSummary } from './placement/testbed';
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
  /** KO of every request type over the whole step, and the first KO causes (the original's client judges by them). Absent in older files. */
  ko?: number | null;
  koCauses?: Record<string, number>;
  /** KO per request type (login, opt_sps, …): a refused login is not a failed grading. */
  koByType?: Record<string, number>;
}

/** Whose client plays the users: scenario R's (this harness's) or the original load test's. */
export type CalibrationScenario = 'r' | 'original';

/** Per scenario: the profile each probe runs and its step, unless --ramp-s/--hold-s say otherwise. */
export const SCENARIO_PROTOCOL: Record<CalibrationScenario, { profile: string; rampS: number; holdS: number; warmUp: 'auto' | 'never' }> = {
  r: { profile: 'small', rampS: 10, holdS: 30, warmUp: 'auto' },
  // k6/lib/original.js ORIGINAL_STEP: 10 s ramp + 60 s, after the profile's 10 s quiet spell.
  original: { profile: 'original', rampS: 10, holdS: 60, warmUp: 'never' },
};

/** The model's saturation rate the steps were placed around (`--from-model`), to set beside the measured one. */
export interface PredictedSaturation {
  rate: number;
  station: string;
  demandsFrom: string;
}

export interface Calibration {
  variant: string;
  /** Whose client measured it (absent in older files: scenario R). */
  scenario?: CalibrationScenario;
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
  /** Highest rate within the SLO (bisected to bisectionResolution); null when even the lowest rate probed fails; the last step when none failed (a lower bound). */
  sustainableRate: number | null;
  /** The first rate that failed the SLO (bisected down to sustainableRate + 1); null when no step failed. */
  firstFailedRate: number | null;
  /** Where the steps ran: 'on' when k6 and the system had CPUs apart (the findings read only such a rate); absent in older files. */
  placement?: { state: 'on' | 'off' | 'unavailable'; clientCpus: number[]; sutCpus: number[] };
  /** The testbed the steps ran on (scaled: s and the quota each group got): a capacity under quotas is the model's. Absent in older files: unscaled. */
  testbed?: TestbedSummary;
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

/**
 * A step as the original load test's client sees it (Gatling's counts over the whole step, ramp
 * included): sustained when no request of any type was KO — a refused login is a KO like a failed
 * submission — and the SPS p95 is within 2 s, in a VALID run. Nothing about keeping up: the
 * original's protocol has no such rule, and a step with 0 KO has answered every user it started.
 */
export function originalStepOf(peak: number, a: Aggregated, phase: CalibrationStep['phase'] = 'step'): CalibrationStep {
  const m = (k: string): number | null => a.paper[k]?.mean ?? null;
  const ko = m('KO');
  const p95 = m('sps.p95');
  const cpu = a.resources.machineCpuSPerOk?.mean;
  const positive = (re: RegExp): Record<string, number> =>
    Object.fromEntries(
      Object.keys(a.paper)
        .map((k) => [k, re.exec(k)?.[1]] as const)
        .filter(([k, name]) => name !== undefined && (a.paper[k]?.mean ?? 0) > 0)
        .map(([k, name]) => [name!, a.paper[k]!.mean!]),
    );
  const koCauses = positive(/^koCauses\.(\w+)$/);
  const koByType = positive(/^perType\.(\w+)\.ko$/);
  const failed = !a.valid || ko === null || ko > 0;
  return {
    peak,
    runId: a.meta.runId,
    valid: a.valid,
    spsEfr: m('sps.efr_paper'),
    spsP95Ms: p95,
    spsThroughputHold: m('sps.throughputHold'),
    rac: m('RAC'),
    machineCpuSPerOkMs: cpu === undefined ? null : cpu * 1000,
    saturated: failed,
    sustained: !failed && p95 !== null && p95 <= ORIGINAL_SPS_P95_MS,
    phase,
    ko,
    koCauses,
    koByType,
  };
}

/** The original protocol's latency bound on the SPS (k6/lib/original.js ORIGINAL_STEP.spsP95Ms). */
export const ORIGINAL_SPS_P95_MS = 2000;

/** The highest peak before the first saturated one, over every probe in ascending rate. */
export function recommend(steps: Pick<CalibrationStep, 'peak' | 'saturated'>[]): number | null {
  let best: number | null = null;
  for (const s of [...steps].sort((x, y) => x.peak - y.peak)) {
    if (s.saturated) break;
    best = s.peak;
  }
  return best;
}

/** The bounds a bisection ended at (sustained: the lower bound it started from when nothing between passed; 0: none), with the rates probed in order. */
export interface Bisection extends BisectionBounds {
  probed: number[];
}

/**
 * Bisects on the SLO between `sustained` (passed; 0 when even the first step failed) and `failed`
 * (failed) until they are `resolutionItS` apart or no arrival rate lies between them (k6's rates
 * come in tenths below 10 it/s, whole above: arrivalRate). Assumes the SLO holds below some rate
 * and fails above it (one crossing).
 */
export async function bisectSustainable(sustained: number, failed: number, sustains: (rate: number) => Promise<boolean>, resolutionItS = bisectionResolution(failed)): Promise<Bisection> {
  const probed: number[] = [];
  const steps = bisection(sustained, failed, resolutionItS);
  let step = steps.next();
  while (!step.done) {
    probed.push(step.value);
    step = steps.next(await sustains(step.value));
  }
  return { ...step.value, probed };
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

export interface CalibrationInput {
  variant: string;
  peaks: number[];
  /** Default: the scenario's (SCENARIO_PROTOCOL). */
  rampS?: number;
  holdS?: number;
  predicted?: PredictedSaturation;
  kdfCost?: number;
  placement?: PlacementRequest;
  /** Default r. */
  scenario?: CalibrationScenario;
  /** The profile of every probe (default: the scenario's; a smoke test scales the step down). */
  profile?: string;
}

/**
 * A capacity is measured with the client on CPUs of its own unless told otherwise: k6 sharing
 * the cores would lower the rate every placed findings level is a multiple of. A request that
 * names no mode (findings passing on its testbed, say) is placed too: spread over a default, its
 * `mode: undefined` used to win, and a scale model's calibration ran unplaced, on a testbed of
 * twice the CPUs its findings had.
 */
export function calibrationPlacement(asked: PlacementRequest | undefined): PlacementRequest {
  return { ...asked, mode: asked?.mode ?? 'on' };
}

/** A calibration as calibrate returns it: with the file it was written to. */
export type WrittenCalibration = Calibration & { file: string };

export function calibrate(input: CalibrationInput): Promise<WrittenCalibration> {
  return exclusive(`bench calibrate ${input.variant}`, () => calibrateNow(input));
}

/** Run ids and the result file's name: `calibrate[-original]` per probe, `calibration[-original]` for the file (a soak's rate never comes from another client's calibration). */
export function calibrationNames(scenario: CalibrationScenario): { probe: string; file: string } {
  return scenario === 'original' ? { probe: 'calibrate-original', file: 'calibration-original' } : { probe: 'calibrate', file: 'calibration' };
}

async function calibrateNow(input: CalibrationInput): Promise<WrittenCalibration> {
  const scenario = input.scenario ?? 'r';
  const protocol = SCENARIO_PROTOCOL[scenario];
  const rampS = input.rampS ?? protocol.rampS;
  const holdS = input.holdS ?? protocol.holdS;
  const names = calibrationNames(scenario);
  const judge = scenario === 'original' ? originalStepOf : stepOf;
  const steps: CalibrationStep[] = [];
  let baselineGradingsPerS: number | null = null;
  let placement: Calibration['placement'];
  let testbed: TestbedSummary | undefined;
  const setAsideRuns: string[] = [];
  const placementAsked = calibrationPlacement(input.placement);
  const measure = async (peak: number, phaseOf: CalibrationStep['phase'], attempt: number): Promise<CalibrationStep> => {
    phase(`calibrate ${input.variant}: ${phaseOf} at ${peak}/s${attempt ? ` (measured again: the last attempt was INVALID)` : ''}`);
    const runId = `${makeRunId(input.variant, names.probe, undefined, undefined, input.kdfCost)}-p${peak}`;
    const a = await runTest({ variant: input.variant, profile: input.profile ?? protocol.profile, runs: 1, peak, rampS, holdS, runId, keepUp: true, kdfCost: input.kdfCost, placement: placementAsked, warmUp: protocol.warmUp });
    const placed = a.meta.placement;
    if (placed) placement = { state: placed.state, clientCpus: placed.clientCpus, sutCpus: placed.sutCpus };
    testbed = testbedSummary(placed?.testbed);
    // The sandboxed baseline each step copied into its run folder (benchmarks/src/baseline.ts).
    baselineGradingsPerS = a.meta.baseline?.best.gradingsPerS ?? baselineGradingsPerS;
    if (!a.valid) phase(`peak ${peak}/s: INVALID (${a.runLines.flatMap((r) => r.reasons ?? []).join('; ') || 'see its aggregated.json'})`);
    return judge(peak, a, phaseOf);
  };
  const probe = async (peak: number, phaseOf: CalibrationStep['phase']): Promise<CalibrationStep> => {
    const { step, setAside } = await measuredValid((attempt) => measure(peak, phaseOf, attempt));
    setAsideRuns.push(...setAside.map((s) => s.runId));
    steps.push(step);
    phase(`peak ${peak}/s: ${step.sustained ? 'within the SLO' : 'FAILS the SLO'} (SPS EFR ${step.spsEfr}, SPS p95 ${step.spsP95Ms?.toFixed(0)} ms, SPS ${step.spsThroughputHold?.toFixed(2)}/s${step.ko !== undefined ? `, KO ${step.ko}${koCausesText(step)}` : ''})`);
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
  const result: Calibration = { ...asked, scenario, rampS, holdS, baselineGradingsPerS, steps, recommendedPeak: recommend(steps), sustainableRate, firstFailedRate: firstFailed, placement, ...(testbed ? { testbed } : {}), bootId: currentBootId(), setAsideRuns };
  // With --kdf-cost the name ends -calibration-kdfN.json: a soak's rate never comes from a cheap-login calibration.
  const file = join(resultsDir(), `${makeRunId(input.variant, names.file, undefined, undefined, input.kdfCost)}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  phase(`wrote ${file}`);
  return { ...result, file };
}

function koCausesText(s: CalibrationStep): string {
  const parts = [...Object.entries(s.koByType ?? {}).map(([t, n]) => `${n} on ${t}`), ...Object.entries(s.koCauses ?? {}).map(([c, n]) => `${n} ${c}`)];
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function calibrationMarkdown(c: Calibration): string {
  const original = c.scenario === 'original';
  const rows = c.steps.map(
    (s) =>
      `| ${s.phase} | ${s.peak} | ${s.spsThroughputHold?.toFixed(2) ?? 'n/a'} | ${s.spsEfr === null ? 'n/a' : (100 * s.spsEfr).toFixed(2) + '%'} | ${s.spsP95Ms?.toFixed(0) ?? 'n/a'} | ${s.rac === null ? 'n/a' : (100 * s.rac).toFixed(2) + '%'} | ${original ? `${s.ko ?? 'n/a'}${koCausesText(s)} | ` : ''}${s.machineCpuSPerOkMs?.toFixed(1) ?? 'n/a'} | ${s.valid ? 'VALID' : 'INVALID'} | ${s.sustained ? 'within the SLO' : s.saturated ? (original ? 'KO' : 'saturated') : 'over the SLO'} |`,
  );
  return [
    `### Calibration of ${c.variant}${original ? " with the original load test's client (no retries, no warm-up, 10 s quiet before each step)" : ''} (${c.rampS}s ramp + ${c.holdS}s hold per step${c.kdfCost !== undefined ? `; passwords hashed with scrypt N = 2^${c.kdfCost}` : ''})`,
    '',
    `| probe | peak (it/s) | SPS OK/s at peak | SPS EFR | SPS p95 (ms) | RAC | ${original ? 'KO (whole step) | ' : ''}CPU ms per OK (machine − client) | run | verdict |`,
    `|---|---:|---:|---:|---:|---:|${original ? '---|' : ''}---:|---|---|`,
    ...rows,
    '',
    `Sustainable rate (${original ? 'SPS p95 ≤ 2 s and 0 KO of any request over the whole step, as Gatling counts' : 'SPS p95 ≤ 2 s, 0 KO'}; bisected to an eighth of the first failing rate, at most 1 it/s): ${sustainableText(c)}. Grader-only baseline: ${c.baselineGradingsPerS?.toFixed(2) ?? 'absent'} gradings/s. Recommended small peak: ${c.recommendedPeak ?? 'below the first step'}.`,
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
