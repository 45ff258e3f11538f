// Which cells the findings need — each design role (claims.ts) as a variant, at each load level
// a claim part reads (loads.ts) — and how they are run: interleaved rounds in a seeded random
// order (schedule.ts), each cell repeated until its comparisons are precise enough or the
// maximum (stats/stopping.ts). The plan is data: --dry-run prints it, run.ts runs it.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { StoppingRule } from '../stats/stopping';
import type { Testbed } from '../placement/testbed';
import { CLAIMS, cellsOf, type Role } from './claims';
import { loadProfile } from '../profiles';
import { arrivalRate, FIRST_PROBE, LEVELS, MULTIPLES, peakAt, peakOf, type Capacity, type LoadLevel } from './loads';
import { BRING_UP_S, CALIBRATION, calibrationPriceS, DISCARD_UNTOLD_AFTER_S, priceRun, type RunShape } from './pricing';
import { cellKey, roundOrder, seededRng, type CellId } from './schedule';

/** smoke: the pipeline end to end in minutes (two cells a level, one search probe) — proves the machinery, decides nothing. */
export type Mode = 'full' | 'quick' | 'smoke';

/** A cell no preset provides: a preset with fields changed (written as a resolved spec file). */
export interface DerivedVariant {
  name: string;
  from: string;
  set: Record<string, unknown>;
}

export interface PlannedCell extends CellId {
  derived?: DerivedVariant;
  roles: Role[];
  /** Claims that read this cell. */
  usedBy: string[];
}

/** One run's shape (small profile, the peak set per level) and the repetition rule. */
export interface Protocol {
  profile: string;
  rampS: number;
  holdS: number;
  pauseS: number;
  levels: LoadLevel[];
  stopping: StoppingRule;
  /** Runs of naked-mon the paper-equivalent search may spend. */
  paperProbes: number;
  /** What the plan must fit in, minutes. */
  budgetMin: number;
  /** The client's request timeout, s (60: Gatling's default, the paper's client). */
  timeoutS: number;
}

export interface Estimate {
  /** Seconds a run takes at each level run (pricing.ts; the paper level at paperMultiple). */
  runS: Partial<Record<LoadLevel, number>>;
  /** One round: a bring-up per variant and each cell once. */
  roundS: number;
  searchS: number;
  /** naked-mon's calibration, made first where the machine has none (0: the plan has a capacity). */
  calibrationS: number;
  /** The multiple the paper level is priced at: where the search starts. */
  paperMultiple: number;
  /** Calibration + search + the minimum rounds: what every run of this mode spends (rounds past it run only if they fit the budget). */
  minimumMin: number;
  /** Calibration + search + every round to the maximum. */
  totalMin: number;
}

export interface FindingsPlan {
  mode: Mode;
  protocol: Protocol;
  roles: Partial<Record<Role, string>>;
  cells: PlannedCell[];
  /** role@level pairs claims read that this mode does not run: those parts stay inconclusive. */
  notRun: string[];
  seed: number;
  capacity: Capacity | null;
  /** Without a capacity: the steps naked-mon's calibration climbs first. */
  calibrationPeaks?: number[];
  /** The search's first multiple, and where it comes from (a previous run's finding on this machine, or the default). */
  paperStart: PaperStart;
  estimate: Estimate;
  /** The testbed the runs are asked on (--testbed; absent: unscaled). */
  testbed?: Testbed;
}

export interface PaperStart {
  multiple: number;
  source: string;
}

/** The 2 × 2's fourth cell: MSA-1-1 with the grader spawned instead of blocking the Exercise MS. */
export const MSA_ASYNC: DerivedVariant = { name: 'msa-1-1-async', from: 'msa-1-1', set: { grader: { exec: 'async' } } };

/**
 * Replicated cells sized to this 2-core machine (the paper had 24 threads; MON × 8 or MSA 2-4-4
 * here would measure CPU contention, not scaling). --quick runs only the paper-equivalent load,
 * where the paper's tables were measured: the 2 × 2 there (claims (i) and RQ1's first two parts)
 * and MON × 2 for one scaling claim, (ii), meant for the scale model (--testbed scaled). Its
 * levels need no sustainable rate (the search finds the load by naked-mon's EFR), so a fresh clone
 * skips the 15-min calibration; the 0.5× parts (resources, the 2 × 2 table) stay inconclusive in it.
 */
const ROLES: Record<Mode, Partial<Record<Role, string>>> = {
  full: {
    'mon-blocking': 'naked-mon',
    'mon-async': 'naked-mon-async',
    'msa-blocking': 'msa-1-1',
    'msa-async': MSA_ASYNC.name,
    'mon-replicated': 'mon-x2',
    'msa-replicated': 'msa-1-2',
    'msa-replicated-more': 'msa-1-4',
    'msa-gateway-replicated': 'msa-2-2-2',
  },
  quick: {
    'mon-blocking': 'naked-mon',
    'mon-async': 'naked-mon-async',
    'msa-blocking': 'msa-1-1',
    'msa-async': MSA_ASYNC.name,
    'mon-replicated': 'mon-x2',
  },
  smoke: {
    'mon-blocking': 'naked-mon',
    'msa-blocking': 'msa-1-1',
  },
};

/**
 * Maxima chosen by the pricing (pricing.ts) so the minimum fits the budget: full ≤ 3 h with 3–6
 * runs per cell; quick ≤ 30 min with 2 runs (its methodology section flags that) and a 20 s client
 * timeout, so an overloaded run's started users are done in 65 s instead of 145 s — Apdex is the
 * same either way (a reply later than 4T = 6 s is frustrated, as a timeout is); EFR is not, which
 * is why its paper-equivalent multiple is searched under that timeout.
 */
export const PROTOCOLS: Record<Mode, Protocol> = {
  full: { profile: 'small', rampS: 10, holdS: 30, pauseS: 5, levels: LEVELS, stopping: { minRuns: 3, maxRuns: 6, precision: 0.1 }, paperProbes: 5, budgetMin: 180, timeoutS: 60 },
  quick: { profile: 'small', rampS: 5, holdS: 15, pauseS: 0, levels: ['paper'], stopping: { minRuns: 2, maxRuns: 2, precision: 0.1 }, paperProbes: 2, budgetMin: 30, timeoutS: 20 },
  smoke: { profile: 'small', rampS: 3, holdS: 7, pauseS: 0, levels: ['0.5x', 'paper'], stopping: { minRuns: 2, maxRuns: 2, precision: 0.1 }, paperProbes: 1, budgetMin: 15, timeoutS: 10 },
};

/**
 * Where the search starts without a previous finding on this machine: the multiple found on one
 * of this kind (2 cores; record full-20261127: 16× = 128 it/s, EFR 65.1 %), so it takes one to
 * three probes, not five from 2×. Smoke runs at toy rates and starts at FIRST_PROBE.
 */
export const DEFAULT_PAPER_START: Record<Mode, PaperStart> = {
  full: { multiple: 16, source: 'the multiple found on a machine of this kind, 2026-11-27' },
  // A 20 s timeout fails more at the same load, and EFR climbs steeply: 6× gave 10.2 %, 12× 88.1 % here (2026-11-27).
  quick: { multiple: 10, source: 'interpolated between 6× (EFR 10.2 %) and 12× (88.1 %), probed with a 20 s timeout on a machine of this kind, 2026-11-27' },
  smoke: { multiple: FIRST_PROBE, source: 'the first probe' },
};
/**
 * Where a search in the scale model starts when no scaled search on this machine points the way:
 * the unscaled start times the CPU naked-mon's monolith gets there (one container's quota, s CPUs)
 * over the CPUs it had unscaled (the whole system under test). Multiples count in the same unit
 * either way; without this a quick search started at the unscaled 10× ran the monolith at EFR
 * 95-100 % in its two probes and never came near the paper's 61.5 %. Two significant digits: at
 * s = 1/24 (the reproduction's 28 containers) the start lies below 1×, where 0.5× steps are 50 %.
 */
export function scaledPaperStart(unscaled: PaperStart, model: ScaleModelSize): PaperStart {
  const multiple = Number((unscaled.multiple * monolithShare(model)).toPrecision(2));
  return { multiple, source: `${unscaled.multiple}× unscaled (${unscaled.source}) × the monolith's share in the scale model, s ${model.s.toPrecision(3)} of ${model.sutCpus} CPU${model.sutCpus > 1 ? 's' : ''}` };
}

/** What the scale model gives: s, one container's CPU in paper cores, and the CPUs of the system under test. */
export interface ScaleModelSize {
  s: number;
  sutCpus: number;
}

/** naked-mon's monolith's CPU in the scale model, as a share of what it has unscaled (the whole system under test). */
export const monolithShare = (model: ScaleModelSize): number => model.s / model.sutCpus;

/**
 * The steps naked-mon's calibration climbs in the scale model: CALIBRATION's, bracketing the
 * unscaled capacity, times the monolith's share there (s = 1/9 on one CPU: 0.4, 0.9, 1.3, 1.8 it/s,
 * where from 4 it/s every step failed and the bisection spent its probes overloaded).
 */
export function scaledCalibrationPeaks(model: ScaleModelSize): number[] {
  return [...new Set(CALIBRATION.peaks.map((p) => arrivalRate(p * monolithShare(model))))].sort((a, b) => a - b);
}

/** The rate a plan without a calibration is priced at (naked-mon's here, 2026-11-27). */
const ASSUMED_RATE = 8;

/** A mode whose levels are all searched (--quick: the paper level only) needs no calibration. */
export const needsCapacity = (p: Pick<Protocol, 'levels'>): boolean => p.levels.some((l) => l !== 'paper');

/**
 * The unit a plan without a calibration counts its multiples in, where no level needs the
 * sustainable rate: the search finds the paper-equivalent load by naked-mon's EFR whatever the unit.
 */
export const NOMINAL_CAPACITY: Capacity = { rate: ASSUMED_RATE, source: `nominal unit of ${ASSUMED_RATE} it/s (no level of this mode is a multiple of a measured rate: the paper-equivalent load is searched by naked-mon's EFR)` };

/**
 * What a comparison with `runs` runs a side can find: the difference (in run-to-run standard
 * deviations σ) a two-sided 95 % interval excludes 0 for with 80 % probability — (t₀.₉₇₅ + t₀.₈₀)·√(2/n)
 * at df = 2n − 2 (equal spreads; Welch's df is no larger).
 */
export function detectableSigmas(runs: number, power = 0.8, alpha = 0.05): number {
  const df = 2 * runs - 2;
  return (tQuantile(1 - alpha / 2, df) + tQuantile(power, df)) * Math.sqrt(2 / runs);
}

/** A run's shape at a level (the paper level at the multiple the search starts from). */
function shapeAt(p: Protocol, level: LoadLevel, rate: number, paperMultiple: number): RunShape {
  const multiple = level === 'paper' ? paperMultiple : MULTIPLES[level];
  return { peak: peakAt(multiple, rate), overloaded: multiple > 1, rampS: p.rampS, holdS: p.holdS, thinkS: loadProfile(p.profile).pauseS, timeoutS: p.timeoutS, betweenS: p.pauseS, discardS: DISCARD_UNTOLD_AFTER_S };
}

/**
 * Plan arithmetic: a round brings every variant up once and runs each of its cells once; the
 * search probes naked-mon up to paperProbes times near the paper level.
 */
export function estimate(p: Protocol, cells: readonly CellId[], rate = ASSUMED_RATE, paperMultiple = DEFAULT_PAPER_START.full.multiple, calibrationS = 0): Estimate {
  const runS: Partial<Record<LoadLevel, number>> = {};
  for (const level of new Set(cells.map((c) => c.level))) runS[level] = priceRun(shapeAt(p, level, rate, paperMultiple)).totalS;
  const variants = new Set(cells.map((c) => c.variant)).size;
  const roundS = variants * BRING_UP_S + cells.reduce((sum, c) => sum + runS[c.level]!, 0);
  const searchS = BRING_UP_S + p.paperProbes * priceRun(shapeAt(p, 'paper', rate, paperMultiple)).totalS;
  const minutes = (rounds: number): number => Math.ceil((calibrationS + searchS + rounds * roundS) / 60);
  return { runS, roundS, searchS, calibrationS, paperMultiple, minimumMin: minutes(p.stopping.minRuns), totalMin: minutes(p.stopping.maxRuns) };
}

export interface PlanOptions {
  seed?: number;
  capacity?: Capacity | null;
  budgetMin?: number;
  paperStart?: PaperStart;
  /** Variants in the design roles instead of the mode's (the tests' fixtures; a study of other presets). */
  roles?: Partial<Record<Role, string>>;
  testbed?: Testbed;
  /** The steps a calibration made first climbs (default CALIBRATION's; the scale model's: scaledCalibrationPeaks). */
  calibrationPeaks?: readonly number[];
}

export function findingsPlan(mode: Mode, opts: PlanOptions = {}): FindingsPlan {
  const roles = opts.roles ?? ROLES[mode];
  const protocol = { ...PROTOCOLS[mode], ...(opts.budgetMin ? { budgetMin: opts.budgetMin } : {}) };
  const cells = new Map<string, PlannedCell>();
  const notRun = new Set<string>();
  for (const c of CLAIMS) {
    for (const { role, level } of cellsOf(c)) {
      const variant = roles[role];
      if (!variant || !protocol.levels.includes(level)) {
        notRun.add(`${role}@${level}`);
        continue;
      }
      const key = cellKey({ variant, level });
      const cell = cells.get(key) ?? { variant, level, ...(variant === MSA_ASYNC.name ? { derived: MSA_ASYNC } : {}), roles: [], usedBy: [] };
      if (!cell.roles.includes(role)) cell.roles.push(role);
      if (!cell.usedBy.includes(c.id)) cell.usedBy.push(c.id);
      cells.set(key, cell);
    }
  }
  // Variants in the roles' order, levels in LEVELS order: a stable listing (the run order is the schedule's).
  const order = Object.values(roles);
  const list = [...cells.values()].sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant) || LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level));
  const paperStart = opts.paperStart ?? DEFAULT_PAPER_START[mode];
  const capacity = opts.capacity ?? null;
  const calibrates = !capacity && needsCapacity(protocol);
  const calibrationPeaks = [...(opts.calibrationPeaks ?? CALIBRATION.peaks)];
  const calibrationS = calibrates ? calibrationPriceS(loadProfile(protocol.profile).pauseS, calibrationPeaks) : 0;
  return {
    mode,
    protocol,
    roles,
    cells: list,
    notRun: [...notRun].sort(),
    seed: opts.seed ?? Date.now() % 2 ** 31,
    capacity,
    ...(calibrates ? { calibrationPeaks } : {}),
    paperStart,
    estimate: estimate(protocol, list, capacity?.rate, paperStart.multiple, calibrationS),
    ...(opts.testbed ? { testbed: opts.testbed } : {}),
  };
}

const fmtMin = (s: number): string => `${(s / 60).toFixed(1)} min`;

/** The testbed, and what it means for the plan's scaling claims (claims.ts `scaling`). */
function testbedLine(p: FindingsPlan): string {
  const runs = (role: Role, level: LoadLevel): boolean => p.cells.some((x) => x.level === level && x.roles.includes(role));
  const scaling = CLAIMS.filter((c) => c.scaling && c.tests.some((t) => runs(t.a, t.level) && runs(t.b, t.level))).map((c) => `(${c.id})`);
  const testbed = p.testbed ?? 'unscaled';
  if (!scaling.length) return `testbed: ${testbed}; no scaling claim has both its cells in this plan`;
  return testbed === 'scaled'
    ? `testbed: scaled (scale model: every container one paper CPU × s of CFS quota): the scaling claims ${scaling.join(', ')} are measured in it`
    : `testbed: unscaled: the scaling claims ${scaling.join(', ')} need more CPUs than processes; on this testbed they read contention (run with --testbed scaled to test them)`;
}

const runPrices = (e: Estimate): string =>
  LEVELS.filter((l) => e.runS[l] !== undefined)
    .map((l) => `${l}${l === 'paper' ? ` (${e.paperMultiple}×)` : ''} ≤ ${e.runS[l]} s`)
    .join(', ');

/** Every cell × load × run of the worst case, in the seeded order (later rounds run only cells still undecided). */
export function planText(p: FindingsPlan): string {
  const pr = p.protocol;
  const e = p.estimate;
  const rate = p.capacity?.rate ?? null;
  const peak = (level: LoadLevel): string => {
    if (level === 'paper') return 'searched';
    const v = rate === null ? null : peakOf(level, rate, null);
    return v === null ? `${level} of the rate` : `${v} it/s`;
  };
  const rng = seededRng(p.seed);
  const rounds: string[] = [];
  for (let r = 1; r <= pr.stopping.maxRuns; r++) {
    const order = roundOrder(p.cells, rng);
    rounds.push(`round ${r}${r > pr.stopping.minRuns ? ' (only cells of comparisons still too wide)' : ''}: ${order.map((c) => `${c.variant}@${c.level}`).join(' → ')}`);
  }
  return [
    `findings (${p.mode}): ${p.cells.length} cells (variant × load) over ${new Set(p.cells.map((c) => c.variant)).size} variants; profile ${pr.profile}, ramp ${pr.rampS} s + hold ${pr.holdS} s, ${pr.pauseS} s apart; seed ${p.seed}`,
    `capacity: ${(rate === null || p.capacity?.source === NOMINAL_CAPACITY.source) && !needsCapacity(pr) ? `none needed (every level is searched); multiples counted in ${NOMINAL_CAPACITY.rate} it/s` : rate === null ? `no calibration of naked-mon with the same placement meeting the SLO (SPS p95 ≤ 2 s, 0 KO): the run calibrates it first (steps ${(p.calibrationPeaks ?? CALIBRATION.peaks).join(', ')} it/s until one fails, then bisected to an eighth of the first failing rate, at most 1 it/s; ≤ ${fmtMin(e.calibrationS)}; or pass --saturation)` : `naked-mon sustains ${rate} it/s (SPS p95 ≤ 2 s, 0 KO; ${p.capacity!.source})`}; levels ${pr.levels.map((l) => `${l} = ${peak(l)}`).join(', ')}`,
    `paper-equivalent load: naked-mon EFR → 61.5 % (paper 000, Table I, 200 users/s), searched from ${p.paperStart.multiple}× (${p.paperStart.source}; double, halve, then bisect) in at most ${pr.paperProbes} runs; client timeout ${pr.timeoutS} s`,
    `repetitions per comparison: ${pr.stopping.minRuns} to ${pr.stopping.maxRuns}, until the 95% CI half-width of B − A ≤ ${100 * pr.stopping.precision}% of A's median; power: with ${pr.stopping.minRuns} runs a side a difference of ${detectableSigmas(pr.stopping.minRuns).toFixed(1)} run-to-run SDs is found 80 % of the time (smaller ones stay inconclusive)${pr.stopping.maxRuns > pr.stopping.minRuns ? `, ${detectableSigmas(pr.stopping.maxRuns).toFixed(1)} SDs at ${pr.stopping.maxRuns}` : ''}`,
    testbedLine(p),
    `estimated duration: ${e.calibrationS ? `calibration ≤ ${fmtMin(e.calibrationS)} + ` : ''}search ≤ ${fmtMin(e.searchS)} + ${fmtMin(e.roundS)} a round (a run at ${runPrices(e)}; ${BRING_UP_S} s a bring-up) = ${e.minimumMin} min for the minimum of ${pr.stopping.minRuns} rounds${pr.stopping.maxRuns > pr.stopping.minRuns ? `, ${e.totalMin} min if all ${pr.stopping.maxRuns} ran` : ''} (budget ${pr.budgetMin} min: a round past the minimum starts only if it fits at the pace measured)`,
    'cells:',
    ...p.cells.map((c, i) => `${i + 1}. ${c.variant}${c.derived ? ` (= ${c.derived.from} with ${JSON.stringify(c.derived.set)})` : ''} @ ${c.level} (${peak(c.level)}) — roles ${c.roles.join(', ')} — for ${c.usedBy.join(', ')}`),
    'runs (cell × load × run, seeded order):',
    ...rounds,
    p.notRun.length ? `not run in this mode (parts needing them stay inconclusive): ${p.notRun.join(', ')}` : 'every role and level is run',
  ].join('\n');
}
