// Predicted vs measured saturation over a set of presets (the models' acceptance figures): the
// measured side comes from `bench calibrate` files, the predicted side from the model.
//   saturation: the last calibration step sustained — kept up, SPS p95 within the SLO (between
//     it and the first one not sustained, the true rate lies) — against the predicted saturation
//     rate: Spearman ρ of the ranking;
//   throughput: at every calibration step, the SPS/s of the hold stage against the model's
//     min(offered rate, saturation rate) — MAE normalised by the measured range.
import { readFileSync } from 'node:fs';
import type { Calibration, PredictedSaturation } from '../calibrate';
import { agreement, type Agreement } from './agreement';

export interface SaturationRow {
  variant: string;
  calibrationFile: string;
  predicted: PredictedSaturation;
  /** Highest peak sustained (kept up within the SLO); null when even the first step was not. */
  measuredKeptUp: number | null;
  /** Lowest peak not sustained; null when every step was (the rate lies above the last: censored). */
  measuredFirstSaturated: number | null;
  /** (predicted − kept up) / kept up. */
  relError: number | null;
  /** The predicted rate lies in [kept up, first saturated). */
  withinBracket: boolean | null;
  steps: { peak: number; predictedSpsPerS: number; measuredSpsPerS: number | null; valid: boolean }[];
}

export interface SaturationAgreement {
  schema: 'shellgrade.model-saturation/1';
  rows: SaturationRow[];
  saturation: Agreement;
  throughput: Agreement;
}

export function readCalibration(file: string): Calibration {
  const c = JSON.parse(readFileSync(file, 'utf8')) as Calibration;
  if (!c.variant || !Array.isArray(c.steps)) throw new Error(`${file} is not a calibration file (bench calibrate writes results/<stamp>-<variant>-calibration.json)`);
  return c;
}

/**
 * The SLO a step must meet to count as sustained: the calibration's own test (no SPS failed, SPS
 * throughput within 10 % of the arrivals) lets a backlog grow up to the 60 s client timeout, so on
 * its own it rarely finds a rate a student would call sustainable; the sustainable rate's
 * definition (docs/design.md, Load levels) adds SPS p95 ≤ 2 s.
 */
export const DEFAULT_SLO_P95_MS = 2000;

/** Whether a calibration step was sustained: kept up, and its SPS p95 within the SLO (null SLO: kept up only). */
export function sustained(step: Calibration['steps'][number], sloP95Ms: number | null): boolean {
  return !step.saturated && (sloP95Ms === null || (step.spsP95Ms !== null && step.spsP95Ms <= sloP95Ms));
}

/** One preset: its calibration steps against the model's saturation rate. */
export function saturationRow(calibrationFile: string, c: Calibration, predicted: PredictedSaturation, sloP95Ms: number | null = DEFAULT_SLO_P95_MS): SaturationRow {
  const first = c.steps.findIndex((s) => !sustained(s, sloP95Ms));
  const firstSaturated = first === -1 ? null : c.steps[first].peak;
  const keptUp = (first === -1 ? c.steps : c.steps.slice(0, first)).at(-1)?.peak ?? null;
  return {
    variant: c.variant,
    calibrationFile,
    predicted,
    measuredKeptUp: keptUp,
    measuredFirstSaturated: firstSaturated,
    relError: keptUp === null ? null : (predicted.rate - keptUp) / keptUp,
    withinBracket: keptUp === null ? null : predicted.rate >= keptUp && (firstSaturated === null || predicted.rate < firstSaturated),
    steps: c.steps.map((s) => ({ peak: s.peak, predictedSpsPerS: Math.min(s.peak, predicted.rate), measuredSpsPerS: s.valid ? s.spsThroughputHold : null, valid: s.valid })),
  };
}

export function saturationAgreement(rows: SaturationRow[]): SaturationAgreement {
  const ranked = rows.filter((r) => r.measuredKeptUp !== null).map((r) => ({ predicted: r.predicted.rate, measured: r.measuredKeptUp! }));
  const steps = rows.flatMap((r) => r.steps.filter((s) => s.measuredSpsPerS !== null).map((s) => ({ predicted: s.predictedSpsPerS, measured: s.measuredSpsPerS! })));
  return { schema: 'shellgrade.model-saturation/1', rows, saturation: agreement('saturation rate (it/s)', ranked), throughput: agreement('SPS/s at the calibration steps', steps) };
}

const num = (v: number | null, digits = 2) => (v === null ? 'n/a' : v.toFixed(digits));
const pct = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} %`);

export function saturationMarkdown(a: SaturationAgreement): string {
  const rows = a.rows.map(
    (r) =>
      `| ${r.variant} | ${num(r.predicted.rate)} | ${r.predicted.station} | ${num(r.measuredKeptUp, 1)} | ${r.measuredFirstSaturated === null ? `none up to ${num(r.steps.at(-1)?.peak ?? null, 1)} (censored)` : num(r.measuredFirstSaturated, 1)} | ${pct(r.relError)} | ${r.withinBracket === null ? 'n/a' : r.withinBracket ? 'yes' : 'no'} |`,
  );
  const agreementRow = (g: Agreement) =>
    `| ${g.metric} | ${g.n} | ${num(g.spearmanRho)} | ${num(g.mae, 3)} | ${g.normalizedMae === null ? 'n/a' : `${(g.normalizedMae * 100).toFixed(1)} %`} |`;
  return [
    '| preset | predicted saturation (it/s) | bottleneck | measured: last peak sustained | first peak not sustained | error vs sustained | predicted in bracket |',
    '|---|---:|---|---:|---:|---:|:-:|',
    ...rows,
    '',
    '| agreement | n | Spearman ρ | MAE | normalised MAE |',
    '|---|---:|---:|---:|---:|',
    agreementRow(a.saturation),
    agreementRow(a.throughput),
    '',
  ].join('\n');
}

/**
 * The demands run to predict a preset from: the first of `runs` whose topology is the preset's
 * (a monolith's CPU per iteration is not an MSA's: no gateway hop, one process), else the first.
 */
export function demandsFor(topology: string, runs: { dir: string; topology: string }[]): string {
  if (runs.length === 0) throw new Error('no demands run given');
  return (runs.find((r) => r.topology === topology) ?? runs[0]).dir;
}
