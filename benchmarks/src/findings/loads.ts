// Load levels as multiples of naked-mon's measured sustainable rate — the highest calibrated
// step meeting the SLO (SPS p95 ≤ 2 s and nothing failed, bench calibrate) — plus the
// paper-equivalent level: the multiple at which naked-mon's EFR matches paper 000's figure for
// the naked monolith at 200 users/s (Table I: EFR 61.5 %), found by search during the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentBootId } from '../machine-speed';
import type { Aggregated } from '../types';

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
  /** The calibration file, or "--saturation" ("--rate" in records made before it was so named) when given on the command line. */
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

/**
 * naked-mon's sustainable rate from its newest calibration in `resultsDir` (not a -kdfN one).
 * Placed findings (the client on CPUs of its own) read only a calibration made the same way: a
 * rate measured with k6 on the system's cores is another machine's capacity. Likewise only one
 * made on this boot (`bootId`; null: any): results/ may come from another host of the same type,
 * up to 2× faster or slower, whose rate would put every load level in the wrong place. And only
 * one made unscaled (the file's `testbed`): under quotas the rate is the scale model's.
 */
export function measuredCapacity(resultsDir: string, opts: { variant?: string; placed?: boolean; bootId?: string | null } = {}): Capacity | null {
  const { variant = CAPACITY_VARIANT, placed = true, bootId = currentBootId() } = opts;
  // The machine's capacity only: a calibration made under the scale model's quotas (calibrated first by a scaled run) is the model's.
  if (!existsSync(resultsDir)) return null;
  const pattern = new RegExp(`^\\d{8}T\\d{6}Z-${variant}-calibration\\.json$`);
  for (const file of readdirSync(resultsDir).filter((f) => pattern.test(f)).sort().reverse()) {
    const c = JSON.parse(readFileSync(join(resultsDir, file), 'utf8')) as { steps: SloStep[]; sustainableRate?: unknown; placement?: { state?: string }; testbed?: { testbed?: string }; bootId?: string | null };
    if ((c.placement?.state === 'on') !== placed) continue;
    if ((c.testbed?.testbed ?? 'unscaled') !== 'unscaled') continue;
    if (bootId !== null && c.bootId !== bootId) continue;
    // A bisecting calibration states its rate; an older file has only its steps.
    const rate = typeof c.sustainableRate === 'number' && c.sustainableRate > 0 ? c.sustainableRate : sustainableRate(c);
    if (rate !== null) return { rate, source: file };
  }
  return null;
}

/** A level's arrival rate (arrivalRate's steps). */
export function peakOf(level: LoadLevel, rate: number, paperMultiple: number | null): number | null {
  const m = level === 'paper' ? paperMultiple : MULTIPLES[level];
  return m === null ? null : peakAt(m, rate);
}

/** The lowest arrival rate a run asks for (k6/lib/config.js MIN_RATE). */
export const MIN_ARRIVAL_RATE = 0.1;

/**
 * An arrival rate as the runs ask for it: tenths of an it/s below 10 it/s, whole ones from 10 (k6
 * counts a rate with tenths per 10 s, k6/lib/config.js rateUnitS), at least MIN_ARRIVAL_RATE. In
 * the scale model naked-mon sustains 1–2 it/s: in whole it/s its 0.5× and 1× were the same load.
 */
export function arrivalRate(x: number): number {
  const rounded = x < 9.95 ? Math.round(x * 10) / 10 : Math.round(x);
  return Math.max(MIN_ARRIVAL_RATE, rounded);
}

/**
 * How close a bisection brings its bounds: an eighth of the first failing rate — what 1 it/s was
 * at 8 it/s, where calibrations used to land — never coarser than 1 it/s nor finer than 0.1. In
 * the scale model naked-mon fails at 2 it/s: to 1 it/s its capacity, the unit of every findings
 * level, was 1 — or 1.9.
 */
export const bisectionResolution = (failed: number): number => Math.min(1, Math.max(0.1, failed / 8));

/** The rate between two bounds a bisection probes next (arrivalRate's steps); null when no rate lies strictly between. */
export function bisectionRate(low: number, high: number): number | null {
  const mid = arrivalRate((low + high) / 2);
  return mid > low && mid < high ? mid : null;
}

/** Where a bisection ended: the highest rate that sustained (its lower bound when none between did) and the lowest that failed. */
export interface BisectionBounds {
  sustained: number;
  failed: number;
}

/**
 * The rates a bisection between `sustained` (passed; 0 when even the first step failed) and
 * `failed` probes, one at a time: each `next(verdict)` takes whether the last probe sustained.
 * It ends `resolution` apart, or where no arrival rate lies between; its return value is the bounds.
 * One loop for the calibration (calibrate.ts, which runs the probes) and for its price (pricing.ts).
 */
export function* bisection(sustained: number, failed: number, resolution = bisectionResolution(failed)): Generator<number, BisectionBounds, boolean> {
  let low = sustained;
  let high = failed;
  for (let mid = bisectionRate(low, high); mid !== null && high - low > resolution; mid = bisectionRate(low, high)) {
    if (yield mid) low = mid;
    else high = mid;
  }
  return { sustained: low, failed: high };
}

/** The arrival rate a multiple of the unit stands for. */
export const peakAt = (multiple: number, rate: number): number => arrivalRate(multiple * rate);

/** One probe of the paper-equivalent search: naked-mon at `multiple` × the sustainable rate. */
export interface PaperProbe {
  multiple: number;
  peak: number;
  /** naked-mon's EFR in the run: a VALID run's, or an INVALID run's own figure (indicative); null when the run gave none. */
  efr: number | null;
  /** The run passed its validity checks. An INVALID probe steers the search, never sets the load. Absent in records written before: their EFR was a VALID run's or null. */
  valid?: boolean;
  runId: string;
}

export interface PaperSearch {
  target: number;
  probes: PaperProbe[];
  /** The VALID probe whose EFR is closest to the target: its multiple, EFR and run (null: no VALID probe measured EFR). */
  multiple: number | null;
  efr: number | null;
  runId?: string | null;
  /** Why there is no paper-equivalent load ("no VALID probe …"): what to report instead of a number; null when there is one. */
  notFound?: string | null;
}

export const FIRST_PROBE = 2;
/** Within this many points of 61.5 % the search stops. */
export const PAPER_TOLERANCE = 0.05;

type Measured = PaperProbe & { efr: number };
const measuredOf = (probes: PaperProbe[]): Measured[] => probes.filter((p): p is Measured => p.efr !== null);
const isValid = (p: PaperProbe): boolean => p.valid !== false;

function bracket(ps: Measured[], target: number): { lo: number | null; hi: number | null } {
  const below = ps.filter((p) => p.efr < target).map((p) => p.multiple);
  const above = ps.filter((p) => p.efr > target).map((p) => p.multiple);
  return { lo: below.length ? Math.max(...below) : null, hi: above.length ? Math.min(...above) : null };
}

/**
 * The next multiple to probe, or null when done: double until EFR reaches the target, then
 * bisect between the highest multiple below it and the lowest above; stop when a VALID probe is
 * within tolerance, or at the budget. An INVALID probe's EFR steers like any other (unless a VALID
 * probe measured its multiple, or it contradicts the VALID ones); one within tolerance is probed
 * again, for a VALID figure there.
 */
export function nextPaperProbe(probes: PaperProbe[], maxProbes: number, target = PAPER_EFR, tolerance = PAPER_TOLERANCE, first = FIRST_PROBE): number | null {
  if (probes.length >= maxProbes) return null;
  if (probes.length === 0) return first;
  const within = (p: Measured) => Math.abs(p.efr - target) <= tolerance;
  const valid = measuredOf(probes).filter(isValid);
  if (valid.some(within)) return null;
  const steering = measuredOf(probes).filter((p) => isValid(p) || !valid.some((v) => v.multiple === p.multiple));
  const closest = [...steering].sort((x, y) => Math.abs(x.efr - target) - Math.abs(y.efr - target))[0];
  if (closest && within(closest)) return closest.multiple;
  let { lo, hi } = bracket(steering, target);
  if (lo !== null && hi !== null && lo >= hi) ({ lo, hi } = bracket(valid, target));
  if (hi === null) return 2 * (lo ?? Math.max(...probes.map((p) => p.multiple)));
  if (lo === null) return hi / 2;
  return (lo + hi) / 2;
}

/** The search's answer: only ever a VALID probe's multiple; with none, `notFound` says so. */
export function paperResult(probes: PaperProbe[], target = PAPER_EFR): PaperSearch {
  const best = measuredOf(probes).filter(isValid).sort((x, y) => Math.abs(x.efr - target) - Math.abs(y.efr - target))[0];
  if (best) return { target, probes, multiple: best.multiple, efr: best.efr, runId: best.runId, notFound: null };
  const invalid = probes.filter((p) => !isValid(p)).length;
  return { target, probes, multiple: null, efr: null, runId: null, notFound: `no VALID probe measured EFR in ${probes.length} probe${probes.length === 1 ? '' : 's'} (${invalid} INVALID)` };
}

/** Runs the search: `probe(m, peak)` runs naked-mon at m × `rate` (peak it/s) and returns its probe; `onProbe` sees the search after each. */
export async function searchPaperLoad(probe: (multiple: number, peak: number) => Promise<PaperProbe>, maxProbes: number, onProbe: ((s: PaperSearch) => void) | undefined, opts: { rate: number; target?: number; tolerance?: number; first?: number }): Promise<PaperSearch> {
  const { rate, target = PAPER_EFR, tolerance = PAPER_TOLERANCE, first = FIRST_PROBE } = opts;
  const probes: PaperProbe[] = [];
  const next = (): number | null => {
    const m = nextPaperProbe(probes, maxProbes, target, tolerance, first);
    // Rates come in steps (arrivalRate): a multiple that lands on a rate a VALID probe measured would measure it again.
    return m !== null && probes.some((p) => isValid(p) && p.peak === peakAt(m, rate)) ? null : m;
  };
  for (let m = next(); m !== null; m = next()) {
    probes.push(await probe(m, peakAt(m, rate)));
    onProbe?.(paperResult(probes, target));
  }
  return paperResult(probes, target);
}

/** A probe from its test's aggregate: the VALID runs' EFR (hold stage), else the INVALID runs' own mean EFR, marked INVALID. */
export function paperProbeOf(multiple: number, peak: number, a: Pick<Aggregated, 'validRuns' | 'paper' | 'runLines' | 'meta'>): PaperProbe {
  if (a.validRuns > 0) return { multiple, peak, efr: a.paper['stages.hold.efr_paper']?.mean ?? a.paper['efr_paper']?.mean ?? null, valid: true, runId: a.meta.runId };
  const efrs = a.runLines.map((l) => l.efr_paper).filter((e): e is number => e !== null);
  return { multiple, peak, efr: efrs.length ? efrs.reduce((x, y) => x + y, 0) / efrs.length : null, valid: false, runId: a.meta.runId };
}
