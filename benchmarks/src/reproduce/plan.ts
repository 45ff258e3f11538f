// What `bench reproduce 000` runs: every configuration of paper 000's Tables I and II that a
// preset stands for (configurations.ts), at one load — the paper-equivalent load, where naked-mon's
// EFR matches the paper's 61.5 % (findings/loads.ts), since the paper ran every configuration at
// the same 200 users/s — at least 3 runs each, interleaved in seeded random rounds. The plan is
// data: --dry-run prints it, run.ts runs it.
import { loadProfile } from '../profiles';
import { DEFAULT_PAPER_START, NOMINAL_CAPACITY, PROTOCOLS, type PaperStart } from '../findings/plan';
import type { Testbed } from '../placement/testbed';
import { peakAt, type Capacity } from '../findings/loads';
import { BRING_UP_S, DISCARD_UNTOLD_AFTER_S, priceRun, type RunShape } from '../findings/pricing';
import { roundOrder, seededRng } from '../findings/schedule';
import { paperCoverage, type Coverage, type ReproducedConfiguration } from './configurations';

/** Fewer runs a configuration gives no interval worth ranking on. */
export const MIN_RUNS = 3;

export interface ReproduceProtocol {
  profile: string;
  rampS: number;
  holdS: number;
  pauseS: number;
  timeoutS: number;
  /** Runs of naked-mon the paper-equivalent search may spend (0: the multiple was given). */
  paperProbes: number;
}

export interface ReproduceEstimate {
  /** One run of a configuration the paper saw keep up (EFR 0) / fall behind, seconds. */
  keepsUpS: number;
  overloadedS: number;
  /** One round: each configuration brought up and run once. */
  roundS: number;
  searchS: number;
  /** Search + `runs` rounds, minutes: as the paper's figures predict (its EFR-0 configurations keep up). */
  expectedMin: number;
  /** The same with every run overloaded: the bound. */
  worstMin: number;
}

/** full: the paper's shape, ≥ 3 runs; smoke: the machinery end to end at the shortest profile, any number of runs — decides nothing. */
export type ReproduceMode = 'full' | 'smoke';

export interface ReproducePlan {
  paper: '000';
  mode: ReproduceMode;
  configurations: ReproducedConfiguration[];
  /** Configurations of the tables no preset stands for. */
  missing: string[];
  runs: number;
  protocol: ReproduceProtocol;
  testbed: Testbed;
  /** The unit of the load's multiples: a calibration's rate, or the nominal one (the load itself is searched). */
  capacity: Capacity;
  /** The paper-equivalent multiple: given (--multiple), else where the search starts. */
  paperStart: PaperStart;
  /** The multiple was given: no search. */
  multipleGiven: boolean;
  seed: number;
  budgetMin: number;
  estimate: ReproduceEstimate;
}

export interface ReproducePlanOptions {
  mode?: ReproduceMode;
  runs?: number;
  testbed?: Testbed;
  /** Default: the nominal unit. */
  capacity?: Capacity;
  paperStart?: PaperStart;
  multipleGiven?: boolean;
  seed?: number;
  budgetMin?: number;
  /** Only these configurations (paper labels or preset names). */
  only?: string[];
  coverage?: Coverage;
}

/** The full findings protocol's run shape: a configuration here is a findings cell at the paper level. */
const PROTOCOL: ReproduceProtocol = (() => {
  const p = PROTOCOLS.full;
  return { profile: p.profile, rampS: p.rampS, holdS: p.holdS, pauseS: p.pauseS, timeoutS: p.timeoutS, paperProbes: p.paperProbes };
})();

/** The shortest: the smoke profile (2 s ramp + 3 s hold at toy rates), a 10 s client timeout, one search probe. */
const SMOKE_PROTOCOL: ReproduceProtocol = (() => {
  const p = loadProfile('smoke');
  return { profile: 'smoke', rampS: p.rampS, holdS: p.holdS, pauseS: 0, timeoutS: PROTOCOLS.smoke.timeoutS, paperProbes: 1 };
})();

/** Fewest runs a configuration per mode: a smoke proves the runner, so one is enough. */
const MODE_MIN_RUNS: Record<ReproduceMode, number> = { full: MIN_RUNS, smoke: 1 };

export function estimateReproduction(p: ReproduceProtocol, configurations: readonly ReproducedConfiguration[], runs: number, rate: number, multiple: number): ReproduceEstimate {
  const shape = (overloaded: boolean): RunShape => ({ peak: peakAt(multiple, rate), overloaded, rampS: p.rampS, holdS: p.holdS, thinkS: loadProfile(p.profile).pauseS, timeoutS: p.timeoutS, betweenS: p.pauseS, discardS: DISCARD_UNTOLD_AFTER_S });
  const keepsUpS = priceRun(shape(false)).totalS;
  const overloadedS = priceRun(shape(true)).totalS;
  const roundOf = (runS: (c: ReproducedConfiguration) => number): number => configurations.reduce((s, c) => s + BRING_UP_S + runS(c), 0);
  const roundS = roundOf((c) => (c.figures.efr > 0 ? overloadedS : keepsUpS));
  const searchS = p.paperProbes ? BRING_UP_S + p.paperProbes * overloadedS : 0;
  const min = (round: number): number => Math.ceil((searchS + runs * round) / 60);
  return { keepsUpS, overloadedS, roundS, searchS, expectedMin: min(roundS), worstMin: min(roundOf(() => overloadedS)) };
}

export function reproducePlan(opts: ReproducePlanOptions = {}): ReproducePlan {
  const mode = opts.mode ?? 'full';
  const runs = opts.runs ?? MODE_MIN_RUNS[mode];
  if (!Number.isInteger(runs) || runs < MODE_MIN_RUNS[mode]) throw new Error(`--runs ${runs}: a reproduction needs at least ${MIN_RUNS} runs a configuration (fewer give no interval to rank on; --smoke runs any number, deciding nothing)`);
  const coverage = opts.coverage ?? paperCoverage();
  const wanted = opts.only?.map((x) => x.toLowerCase());
  const configurations = wanted ? coverage.covered.filter((c) => wanted.includes(c.label.toLowerCase()) || wanted.includes(c.variant)) : coverage.covered;
  const unknown = wanted?.filter((w) => !coverage.covered.some((c) => c.label.toLowerCase() === w || c.variant === w)) ?? [];
  if (unknown.length) throw new Error(`--only: ${unknown.join(', ')} is no configuration of Tables I–II with a preset (known: ${coverage.covered.map((c) => `${c.label} = ${c.variant}`).join(', ')})`);
  const multipleGiven = opts.multipleGiven ?? false;
  const base = mode === 'smoke' ? SMOKE_PROTOCOL : PROTOCOL;
  const protocol = { ...base, paperProbes: multipleGiven ? 0 : base.paperProbes };
  const capacity = opts.capacity ?? NOMINAL_CAPACITY;
  const paperStart = opts.paperStart ?? DEFAULT_PAPER_START.full;
  return {
    paper: '000',
    mode,
    configurations,
    missing: coverage.missing,
    runs,
    protocol,
    testbed: opts.testbed ?? 'unscaled',
    capacity,
    paperStart,
    multipleGiven,
    seed: opts.seed ?? Date.now() % 2 ** 31,
    budgetMin: opts.budgetMin ?? 300,
    estimate: estimateReproduction(protocol, configurations, runs, capacity.rate, paperStart.multiple),
  };
}

/** Why the plan cannot start within its budget (its expected minimum is past it), or null. */
export function overPlanBudget(p: ReproducePlan): string | null {
  if (p.estimate.expectedMin <= p.budgetMin) return null;
  return `the plan needs about ${p.estimate.expectedMin} min for ${p.runs} runs of ${p.configurations.length} configurations, over its ${p.budgetMin} min budget: raise --budget-min, or run fewer configurations (--only)`;
}

const fmtMin = (s: number): string => `${(s / 60).toFixed(1)} min`;

/** The plan in words: configurations, load, every run in the seeded order, the planned wall time. */
export function reproducePlanText(p: ReproducePlan): string {
  const e = p.estimate;
  const rate = p.capacity.rate;
  const peak = `${peakAt(p.paperStart.multiple, rate)} it/s (${p.paperStart.multiple}× ${rate} it/s)`;
  const rng = seededRng(p.seed);
  const cells = p.configurations.map((c) => ({ variant: c.variant, level: 'paper' as const }));
  const rounds = Array.from({ length: p.runs }, (_, i) => `round ${i + 1}${i >= MIN_RUNS ? ' (if it fits the budget at the measured pace)' : ''}: ${roundOrder(cells, rng).map((c) => c.variant).join(' → ')}`);
  return [
    `reproduce 000${p.mode === 'smoke' ? ' (smoke: the runner end to end, deciding nothing)' : ''}: ${p.configurations.length} configurations of Tables I–II × ${p.runs} runs = ${p.configurations.length * p.runs} runs; testbed ${p.testbed}; profile ${p.protocol.profile}, ramp ${p.protocol.rampS} s + hold ${p.protocol.holdS} s, client timeout ${p.protocol.timeoutS} s; seed ${p.seed}`,
    `capacity: ${p.capacity.source === NOMINAL_CAPACITY.source ? `none needed (the one load is searched); multiples counted in ${rate} it/s` : `naked-mon sustains ${rate} it/s (${p.capacity.source})`}`,
    p.multipleGiven
      ? `load: every configuration at ${peak} (--multiple), the paper's 200 users/s for all`
      : `load: every configuration at the paper-equivalent load, naked-mon's EFR → 61.5 % (Table I), searched from ${p.paperStart.multiple}× (${p.paperStart.source}) in ≤ ${p.protocol.paperProbes} runs (≤ ${fmtMin(e.searchS)}); priced at ${peak}`,
    `planned wall time: ${e.expectedMin} min (${fmtMin(e.roundS)} a round: a run ${e.overloadedS} s where the paper saw failures, ${e.keepsUpS} s where it saw EFR 0, ${BRING_UP_S} s a bring-up), ≤ ${e.worstMin} min if every run is overloaded; budget ${p.budgetMin} min${overPlanBudget(p) ? ` — OVER: ${overPlanBudget(p)}` : ''}`,
    'configurations (paper label = preset, the paper\'s EFR and Apdex at 200 users/s):',
    ...p.configurations.map((c, i) => `${i + 1}. ${c.label} = ${c.variant} (Table ${c.tables.join(', ')}; EFR ${(100 * c.figures.efr).toFixed(2)} %, Apdex ${c.figures.apdex ?? 'not printed'})`),
    p.missing.length ? `not covered (no preset declares them): ${p.missing.join(', ')}` : 'every configuration of Tables I–II has a preset',
    'runs (seeded order):',
    ...rounds,
  ].join('\n');
}
