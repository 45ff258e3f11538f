// Which cells the findings need — each design role (claims.ts) as a variant, at each load level
// a claim part reads (loads.ts) — and how they are run: interleaved rounds in a seeded random
// order (schedule.ts), each cell repeated until its comparisons are precise enough or the
// maximum (stats/stopping.ts). The plan is data: --dry-run prints it, run.ts runs it.
import type { StoppingRule } from '../stats/stopping';
import { CLAIMS, cellsOf, type Role } from './claims';
import { LEVELS, peakOf, type Capacity, type LoadLevel } from './loads';
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
}

export interface Estimate {
  runS: number;
  roundS: number;
  searchS: number;
  /** Worst case: every cell runs the maximum. */
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
  estimate: Estimate;
}

/** The 2 × 2's fourth cell: MSA-1-1 with the grader spawned instead of blocking the Exercise MS. */
export const MSA_ASYNC: DerivedVariant = { name: 'msa-1-1-async', from: 'msa-1-1', set: { grader: { exec: 'async' } } };

/**
 * Replicated cells sized to this 2-core machine (the paper had 24 threads; MON × 8 or MSA 2-4-4
 * here would measure CPU contention, not scaling). --quick keeps the 2 × 2 and one replicated
 * configuration per architecture at 0.5× and the paper-equivalent load.
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
    'msa-replicated': 'msa-1-2',
  },
  smoke: {
    'mon-blocking': 'naked-mon',
    'msa-blocking': 'msa-1-1',
  },
};

/**
 * Maxima chosen by the arithmetic below so the worst case fits the budget: full ≤ 3 h with
 * 3–6 runs per cell; quick ≤ 30 min with 2 runs (its methodology section flags that).
 */
export const PROTOCOLS: Record<Mode, Protocol> = {
  full: { profile: 'small', rampS: 10, holdS: 30, pauseS: 5, levels: LEVELS, stopping: { minRuns: 3, maxRuns: 6, precision: 0.1 }, paperProbes: 5, budgetMin: 180 },
  quick: { profile: 'small', rampS: 5, holdS: 15, pauseS: 5, levels: ['0.5x', 'paper'], stopping: { minRuns: 2, maxRuns: 2, precision: 0.1 }, paperProbes: 2, budgetMin: 30 },
  smoke: { profile: 'small', rampS: 3, holdS: 7, pauseS: 0, levels: ['0.5x', 'paper'], stopping: { minRuns: 2, maxRuns: 2, precision: 0.1 }, paperProbes: 1, budgetMin: 10 },
};

/**
 * Measured here (results of 2026-11-25): bring-up, seeding and warm-up of a variant 10–30 s;
 * each run ends ~25 s after its hold (iterations started late finish their five 5 s pauses)
 * plus ~5 s of drain, audit and reset.
 */
export const SETUP_S = 30;
export const TAIL_S = 30;

/** Plan arithmetic: a round brings every variant up once and runs each of its cells once. */
export function estimate(p: Protocol, variants: number, cells: number): Estimate {
  const runS = p.rampS + p.holdS + TAIL_S + p.pauseS;
  const roundS = variants * SETUP_S + cells * runS;
  const searchS = SETUP_S + p.paperProbes * runS;
  return { runS, roundS, searchS, totalMin: Math.ceil((searchS + p.stopping.maxRuns * roundS) / 60) };
}

export function findingsPlan(mode: Mode, opts: { seed?: number; capacity?: Capacity | null; budgetMin?: number } = {}): FindingsPlan {
  const roles = ROLES[mode];
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
  const variants = new Set(list.map((c) => c.variant)).size;
  return { mode, protocol, roles, cells: list, notRun: [...notRun].sort(), seed: opts.seed ?? Date.now() % 2 ** 31, capacity: opts.capacity ?? null, estimate: estimate(protocol, variants, list.length) };
}

const fmtMin = (s: number): string => `${(s / 60).toFixed(1)} min`;

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
    `capacity: ${rate === null ? 'no calibration of naked-mon with the same placement meeting the SLO (SPS p95 ≤ 2 s, 0 KO): run `npm run bench -- calibrate --variant naked-mon` first, or pass --rate' : `naked-mon sustains ${rate} it/s (SPS p95 ≤ 2 s, 0 KO; ${p.capacity!.source})`}; levels ${pr.levels.map((l) => `${l} = ${peak(l)}`).join(', ')}`,
    `paper-equivalent load: naked-mon EFR → 61.5 % (paper 000, Table I, 200 users/s), searched from 2× (double, then bisect) in at most ${pr.paperProbes} runs`,
    `repetitions per comparison: ${pr.stopping.minRuns} to ${pr.stopping.maxRuns}, until the 95% CI half-width of B − A ≤ ${100 * pr.stopping.precision}% of A's median`,
    `estimated duration (worst case): search ${fmtMin(e.searchS)} + ${pr.stopping.maxRuns} rounds × ${fmtMin(e.roundS)} (${e.runS} s a run, ${SETUP_S} s a bring-up) = ${e.totalMin} min (budget ${pr.budgetMin} min: a round past the minimum of ${pr.stopping.minRuns} starts only if it fits at the pace measured)`,
    'cells:',
    ...p.cells.map((c, i) => `${i + 1}. ${c.variant}${c.derived ? ` (= ${c.derived.from} with ${JSON.stringify(c.derived.set)})` : ''} @ ${c.level} (${peak(c.level)}) — roles ${c.roles.join(', ')} — for ${c.usedBy.join(', ')}`),
    'runs (cell × load × run, seeded order):',
    ...rounds,
    p.notRun.length ? `not run in this mode (parts needing them stay inconclusive): ${p.notRun.join(', ')}` : 'every role and level is run',
  ].join('\n');
}
