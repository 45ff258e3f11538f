// Load levels as multiples of naked-mon's measured sustainable rate — the highest calibrated
// step meeting the SLO (SPS p95 ≤ 2 s and nothing failed, bench calibrate) — plus the
// paper-equivalent level: the multiple at which naked-mon's EFR matches paper 000's figure for
// the naked monolith at 200 users/s (Table I: EFR 61.5 %), found by search during the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type LoadLevel = '0.5x' | '1x' | '1.5x' | '2x' | 'paper';

export const LEVELS: LoadLevel[] = ['0.5x', '1x', '1.5x', '2x', 'paper'];

/** Fixed multiples of the sustainable rate; 'paper' is searched. */
export const MULTIPLES: Record<Exclude<LoadLevel, 'paper'>, number> = { '0.5x': 0.5, '1x': 1, '1.5x': 1.5, '2x': 2 };

/** Where availability (EFR) is judged: above the sustainable rate. */
export const OVERLOAD_LEVELS: LoadLevel[] = ['1.5x', '2x', 'paper'];

/** Paper 000, Table I, naked monolith at 200 new users/s: EFR 61.5 % (RAC 52.93 %, FR 27.26 %). */
export const PAPER_EFR = 0.615;

/** The capacity SLO: SPS p95 within 2 s and no SPS failure, on a VALID step. */
export const SLO = { spsP95Ms: 2000, efr: 0 } as const;

export const CAPACITY_VARIANT = 'naked-mon';

export interface Capacity {
  /** it/s (k6 arrival rate) naked-mon sustains within the SLO. */
  rate: number;
  /** The calibration file, or "--rate" when given on the command line. */
  source: string;
}

/** What the SLO reads of a calibration step (bench calibrate's CalibrationStep has these; declared here so calibrate can import the SLO without a circle). */
export interface SloStep {
  peak: number;
  valid: boolean;
  spsEfr: number | null;
  spsP95Ms: number | null;
}

export function meetsSlo(s: SloStep): boolean {
  return s.valid && s.spsEfr !== null && s.spsEfr <= SLO.efr && s.spsP95Ms !== null && s.spsP95Ms <= SLO.spsP95Ms;
}

/** The highest peak meeting the SLO before the first step that does not (steps ascending). */
export function sustainableRate(c: { steps: SloStep[] }): number | null {
  let best: number | null = null;
  for (const s of [...c.steps].sort((x, y) => x.peak - y.peak)) {
    if (!meetsSlo(s)) break;
    best = s.peak;
  }
  return best;
}

/** naked-mon's sustainable rate from its newest calibration in `resultsDir` (not a -kdfN one). */
export function measuredCapacity(resultsDir: string, variant = CAPACITY_VARIANT): Capacity | null {
  if (!existsSync(resultsDir)) return null;
  const pattern = new RegExp(`^\\d{8}T\\d{6}Z-${variant}-calibration\\.json$`);
  for (const file of readdirSync(resultsDir).filter((f) => pattern.test(f)).sort().reverse()) {
    const c = JSON.parse(readFileSync(join(resultsDir, file), 'utf8')) as { steps: SloStep[]; sustainableRate?: unknown };
    // A bisecting calibration states its rate; an older file has only its steps.
    const rate = typeof c.sustainableRate === 'number' && c.sustainableRate > 0 ? c.sustainableRate : sustainableRate(c);
    if (rate !== null) return { rate, source: file };
  }
  return null;
}

/** A level's arrival rate in whole it/s (k6's targets are integers), at least 1. */
export function peakOf(level: LoadLevel, rate: number, paperMultiple: number | null): number | null {
  const m = level === 'paper' ? paperMultiple : MULTIPLES[level];
  return m === null ? null : Math.max(1, Math.round(m * rate));
}

/** One probe of the paper-equivalent search: naked-mon at `multiple` × the sustainable rate. */
export interface PaperProbe {
  multiple: number;
  peak: number;
  efr: number | null;
  runId: string;
}

export interface PaperSearch {
  target: number;
  probes: PaperProbe[];
  /** The probed multiple whose EFR is closest to the target (null: no probe measured EFR). */
  multiple: number | null;
  efr: number | null;
}

export const FIRST_PROBE = 2;
/** Within this many points of 61.5 % the search stops. */
export const PAPER_TOLERANCE = 0.05;

/**
 * The next multiple to probe, or null when done: double until EFR reaches the target, then
 * bisect between the highest multiple below it and the lowest above; stop within tolerance.
 */
export function nextPaperProbe(probes: PaperProbe[], maxProbes: number, target = PAPER_EFR, tolerance = PAPER_TOLERANCE): number | null {
  if (probes.length >= maxProbes) return null;
  const measured = probes.filter((p): p is PaperProbe & { efr: number } => p.efr !== null);
  if (probes.length === 0) return FIRST_PROBE;
  if (measured.some((p) => Math.abs(p.efr - target) <= tolerance)) return null;
  const below = measured.filter((p) => p.efr < target).map((p) => p.multiple);
  const above = measured.filter((p) => p.efr > target).map((p) => p.multiple);
  const lo = below.length ? Math.max(...below) : null;
  const hi = above.length ? Math.min(...above) : null;
  if (hi === null) return 2 * (lo ?? Math.max(...probes.map((p) => p.multiple)));
  if (lo === null) return hi / 2;
  return (lo + hi) / 2;
}

export function paperResult(probes: PaperProbe[], target = PAPER_EFR): PaperSearch {
  const measured = probes.filter((p) => p.efr !== null);
  const best = measured.sort((x, y) => Math.abs(x.efr! - target) - Math.abs(y.efr! - target))[0];
  return { target, probes, multiple: best?.multiple ?? null, efr: best?.efr ?? null };
}
