// Which tests the findings need: each design role (claims.ts) as a variant, per mode. The plan
// is data (printed by --dry-run, run by run.ts); the evaluation only reads finished runs.
import { CLAIMS, rolesOf, type Role } from './claims';

export type Mode = 'full' | 'quick';

/** A cell no preset provides: a preset with fields changed (written as a resolved spec file). */
export interface DerivedVariant {
  name: string;
  from: string;
  set: Record<string, unknown>;
}

export interface PlannedTest {
  variant: string;
  derived?: DerivedVariant;
  roles: Role[];
  /** Claims that read this test. */
  usedBy: string[];
}

export interface Protocol {
  profile: string;
  runs: number;
  rampS?: number;
  holdS?: number;
  pauseS?: number;
}

export interface FindingsPlan {
  mode: Mode;
  protocol: Protocol;
  tests: PlannedTest[];
  roles: Partial<Record<Role, string>>;
  /** Roles this mode does not run: the claims that need them stay inconclusive. */
  notRun: Role[];
  estimateMin: number;
}

/** The 2 × 2's fourth cell: MSA-1-1 with the grader spawned instead of blocking the Exercise MS. */
export const MSA_ASYNC: DerivedVariant = { name: 'msa-1-1-async', from: 'msa-1-1', set: { grader: { exec: 'async' } } };

/**
 * Replicated cells sized to this 2-core machine (the paper had 24 threads; MON × 8 or MSA 2-4-4
 * here would measure CPU contention, not scaling). --quick keeps the 2 × 2 and one replicated
 * configuration per architecture, 3 runs of a shortened small profile (~24 min).
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
};

/** full: the paper's 10 runs per test on the small profile; quick: 3 shortened runs. */
const PROTOCOLS: Record<Mode, Protocol> = {
  full: { profile: 'small', runs: 10 },
  quick: { profile: 'small', runs: 3, rampS: 10, holdS: 25, pauseS: 5 },
};

/**
 * Small profile: ramp 20 s, hold 40 s, 10 s apart. Measured here (results of 2026-11-25): bring-up,
 * seeding and warm-up 10–30 s; each run ends ~25 s after its hold (iterations started late finish
 * their five 5 s pauses) plus ~5 s of drain, audit and reset.
 */
const SMALL = { rampS: 20, holdS: 40, pauseS: 10 };
const SETUP_S = 30;
const TAIL_S = 30;

export function estimateMinutes(p: Protocol, tests: number): number {
  const run = (p.rampS ?? SMALL.rampS) + (p.holdS ?? SMALL.holdS) + TAIL_S + (p.pauseS ?? SMALL.pauseS);
  return Math.round((tests * (SETUP_S + p.runs * run)) / 60);
}

export function findingsPlan(mode: Mode): FindingsPlan {
  const roles = ROLES[mode];
  const byVariant = new Map<string, PlannedTest>();
  for (const [role, variant] of Object.entries(roles) as [Role, string][]) {
    const t = byVariant.get(variant) ?? { variant, ...(variant === MSA_ASYNC.name ? { derived: MSA_ASYNC } : {}), roles: [], usedBy: [] };
    t.roles.push(role);
    byVariant.set(variant, t);
  }
  for (const c of CLAIMS) {
    for (const role of rolesOf(c)) {
      const t = roles[role] ? byVariant.get(roles[role]) : undefined;
      if (t && !t.usedBy.includes(c.id)) t.usedBy.push(c.id);
    }
  }
  const all = new Set(CLAIMS.flatMap(rolesOf));
  const tests = [...byVariant.values()];
  return { mode, protocol: PROTOCOLS[mode], tests, roles, notRun: [...all].filter((r) => !roles[r]).sort(), estimateMin: estimateMinutes(PROTOCOLS[mode], tests.length) };
}

export function planText(p: FindingsPlan): string {
  const pr = p.protocol;
  const overrides = [pr.rampS !== undefined ? `--ramp-s ${pr.rampS}` : '', pr.holdS !== undefined ? `--hold-s ${pr.holdS}` : '', pr.pauseS !== undefined ? `--pause-s ${pr.pauseS}` : ''].filter(Boolean).join(' ');
  return [
    `findings (${p.mode}): ${p.tests.length} tests, profile ${pr.profile}, ${pr.runs} runs each${overrides ? ` (${overrides})` : ''}, ~${p.estimateMin} min`,
    ...p.tests.map(
      (t, i) =>
        `${i + 1}. ${t.variant}${t.derived ? ` (= ${t.derived.from} with ${JSON.stringify(t.derived.set)})` : ''} — roles ${t.roles.join(', ')} — for ${t.usedBy.join(', ')}: bench run --variant ${t.derived ? `<spec ${t.variant}.yaml>` : t.variant} --profile ${pr.profile} --runs ${pr.runs}${overrides ? ` ${overrides}` : ''}`,
    ),
    p.notRun.length ? `not run in this mode (claims needing them stay inconclusive): ${p.notRun.join(', ')}` : 'every role is run',
  ].join('\n');
}
