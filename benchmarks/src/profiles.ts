import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { repoRoot } from './paths';

const stepSchema = z.object({ rate: z.number().int().min(1), holdS: z.number().positive() });

/**
 * A suite (benchmarks/README.md, "Suites"): the load as steps, plus the thresholds its verdict
 * uses. Defaults are the issue's: soak at 70 % of saturation, growth and drift <= 10 %; stress
 * SLO KO <= 1 % and p95 <= 10 s, broken when <= 10 % of the planned requests are OK; spike
 * recovered within +10 % of the pre-spike p95.
 */
export const suiteSchema = z.object({
  kind: z.enum(['load', 'soak', 'stress', 'spike']),
  steps: z.array(stepSchema).min(1).optional(),
  transitionS: z.number().min(1).default(5),
  /** Width of the timeline windows (p95 over time, spike recovery). */
  windowS: z.number().positive().default(10),
  soakS: z.number().positive().optional(),
  warmupS: z.number().nonnegative().default(0),
  /** First/last windows compared by the soak verdict; default a fifth of the time after warm-up. */
  driftWindowS: z.number().positive().optional(),
  saturationShare: z.number().positive().default(0.7),
  maxMemoryGrowth: z.number().nonnegative().default(0.1),
  maxP95Drift: z.number().nonnegative().default(0.1),
  sloKoShare: z.number().nonnegative().default(0.01),
  sloP95Ms: z.number().positive().default(10_000),
  brokenOkShare: z.number().nonnegative().default(0.1),
  burstStep: z.number().int().min(1).default(1),
  tolerance: z.number().nonnegative().default(0.1),
});
export type Suite = z.infer<typeof suiteSchema>;

/**
 * A closed-model thread sweep (paper 001, benchmarks/sweep.js): `vus` threads per step, each
 * ramped from 0 over rampS, held holdS (the measured window), gapS of drain before the next.
 */
export const sweepSchema = z.object({
  vus: z.array(z.number().int().min(1)).min(1),
  rampS: z.number().nonnegative(),
  holdS: z.number().positive(),
  gapS: z.number().nonnegative().default(5),
});
export type Sweep = z.infer<typeof sweepSchema>;

/**
 * A request mix (paper 003, benchmarks/mix.js): for each p in `ps`, `vus` users in a closed
 * loop sending r1 with probability p and r2 otherwise; ramp rampS, measured hold holdS, gapS of drain.
 */
export const mixSchema = z.object({
  ps: z.array(z.number().min(0).max(1)).min(1),
  vus: z.number().int().min(1),
  rampS: z.number().nonnegative(),
  holdS: z.number().positive(),
  gapS: z.number().nonnegative().default(5),
});
export type Mix = z.infer<typeof mixSchema>;

/** One load profile (k6/profiles.json is shared with benchmarks/sps.js, sweep.js and mix.js). */
export const profileSchema = z
  .object({
    /** Suites derive peak, rampS and holdS from their steps (a soak's rate is set by the runner). */
    peak: z.number().positive().optional(),
    rampS: z.number().nonnegative().optional(),
    holdS: z.number().nonnegative().optional(),
    runs: z.number().int().positive(),
    betweenRunsS: z.number().nonnegative(),
    pauseS: z.number().nonnegative(),
    students: z.number().int().positive(),
    thresholds: z.boolean(),
    /** false: no connection reuse between the users a k6 VU plays (k6 noVUConnectionReuse), as Gatling. */
    connectionReuse: z.boolean().default(false),
    /** even: k6's evenly spaced arrivals; exponential: Poisson arrivals (k6/lib/scenario-r.js). */
    arrivals: z.enum(['even', 'exponential']).default('even'),
    /** A student refused with 503 + Retry-After waits as told and submits again, at most maxRetries times (k6/lib/scenario-r.js). */
    honourRetryAfter: z.boolean().optional(),
    maxRetries: z.number().int().nonnegative().optional(),
    /** Client timeout in seconds (default 60). */
    timeoutS: z.number().positive().optional(),
    suite: suiteSchema.optional(),
    sweep: sweepSchema.optional(),
    mix: mixSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if ([p.suite, p.sweep, p.mix].filter(Boolean).length > 1) ctx.addIssue({ code: 'custom', message: 'a profile is a suite, a sweep or a mix, not several' });
    if (!p.suite && !p.sweep && !p.mix && (p.peak === undefined || p.rampS === undefined || p.holdS === undefined)) ctx.addIssue({ code: 'custom', message: 'a profile without a suite needs peak, rampS and holdS' });
    if (p.suite && !p.suite.steps && p.suite.kind !== 'soak') ctx.addIssue({ code: 'custom', message: `a ${p.suite.kind} suite needs steps` });
    if (p.suite?.kind === 'soak' && !p.suite.steps && p.suite.soakS === undefined) ctx.addIssue({ code: 'custom', message: 'a soak suite needs soakS' });
    if (p.suite?.kind === 'spike' && p.suite.steps && p.suite.burstStep >= p.suite.steps.length - 1) ctx.addIssue({ code: 'custom', message: 'a spike needs a baseline step after its burst step' });
  })
  .transform((p) => ({ ...p, ...(p.sweep ? sweepInjection(p.sweep) : p.mix ? mixInjection(p.mix) : injectionOf(p.suite, p)) }));

/** A mix's peak is its VUs; the whole schedule is its "hold". */
function mixInjection(m: Mix): { peak: number; rampS: number; holdS: number } {
  return { peak: m.vus, rampS: 0, holdS: m.ps.length * (m.rampS + m.holdS + m.gapS) };
}

/** A sweep's peak is its largest thread count; the whole schedule is its "hold". */
function sweepInjection(s: Sweep): { peak: number; rampS: number; holdS: number } {
  return { peak: Math.max(...s.vus), rampS: 0, holdS: s.vus.length * (s.rampS + s.holdS + s.gapS) };
}
export type Profile = z.infer<typeof profileSchema>;

/** peak / rampS / holdS of a suite: the highest step rate, no ramp, the whole schedule held (a soak without steps: peak 0 until the runner sets its rate). */
function injectionOf(suite: Suite | undefined, p: { peak?: number; rampS?: number; holdS?: number }): { peak: number; rampS: number; holdS: number } {
  if (!suite) return { peak: p.peak!, rampS: p.rampS!, holdS: p.holdS! };
  if (!suite.steps) return { peak: p.peak ?? 0, rampS: 0, holdS: suite.soakS! };
  // The schedule itself is k6's (k6/lib/steps.js); the runner reads it back from k6's summary.
  const total = suite.steps.reduce((sum, s) => sum + s.holdS, 0) + (suite.steps.length - 1) * suite.transitionS;
  return { peak: Math.max(...suite.steps.map((s) => s.rate)), rampS: 0, holdS: total };
}

export function loadProfiles(file = join(repoRoot(), 'k6', 'profiles.json')): Record<string, Profile> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const out: Record<string, Profile> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith('_')) continue;
    out[name] = profileSchema.parse(value);
  }
  return out;
}

export function loadProfile(name: string): Profile {
  const all = loadProfiles();
  const p = all[name];
  if (!p) throw new Error(`unknown profile "${name}" (known: ${Object.keys(all).join(', ')})`);
  return p;
}
