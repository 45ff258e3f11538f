/**
 * The saved plans a console launch may name (the bench CLI's: run, a suite — `run` with a suite
 * profile —, matrix, findings, faults), each request validated here before anything starts:
 * 400 problem+json with the reason for a malformed or unknown value, 409 for a preset other than
 * the variant serving this console, 422 for a plan the console refuses (with the command to run
 * it from a shell). What is launched is `npm run bench -- <launchArgs(request)>` and where it is
 * told to write (ops-launch.ts: `--run-id <id>`, `--out results/findings/<id>`).
 *
 * The standalone console (`npm run console`: served by no variant, ownVariant undefined) launches
 * every plan and any preset. A console served by a variant refuses matrix, findings and faults,
 * and runs of other presets: the launcher holds one variant at a time, and that console is one. A matrix or a findings run brings up other presets in turn (taking
 * down the console's own variant, with its live page and its Cancel, and bringing the last one
 * down at the end: no console left); a faults run kills, stops and starves the variant it
 * measures and restarts or cuts the native servers this console shares with it (its sessions and
 * launch records are in PostgreSQL), behind a routed copy of the variant it brings up. None can
 * be watched or cancelled from the console it would take down; each is run from a shell.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAUNCH_PLANS, launchArgs, launchRequestSchema, type CheckedLaunch, type LaunchPlan, type LaunchPlanOffer, type LaunchRequest } from '@shellgrade/console-contract';
import { shellCommand, type BenchCli } from './ops-bench-cli';

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** What each plan takes (anything else is refused with the plan's own list). */
const OPTIONS: Record<LaunchPlan, (keyof LaunchRequest)[]> = {
  run: ['preset', 'profile', 'runs', 'peak'],
  suite: ['preset', 'profile', 'peak', 'saturation'],
  matrix: ['presets', 'profile', 'runs'],
  findings: ['mode'],
  faults: ['preset', 'profile', 'faults'],
};

const DESCRIPTIONS: Record<LaunchPlan, string> = {
  run: 'one test (R runs) of one preset under a load profile',
  suite: 'a paper 002 suite of one preset: load, soak, stress or spike (their -smoke/-short/-scaled versions)',
  matrix: 'several presets one after the other, then reported together',
  findings: "paper 000's findings as verdicts: interleaved runs of the 2 × 2's presets at measured loads",
  faults: 'one fault per run (kill, SIGSTOP, CPU starvation, latency, outage, restart) in a window of steady load',
};

export const REFUSED: Partial<Record<LaunchPlan, string>> = {
  matrix:
    'a matrix brings up each of its presets in turn, and the launcher holds one variant at a time: the variant serving this console would go down with its live page and its Cancel, and the last preset is brought down at the end, leaving no console',
  findings:
    "a findings run brings up the 2 × 2's presets in turn (naked-mon, msa-1-1, ...) for up to hours, the client and the system on cpusets of their own: the variant serving this console would go down with its live page and its Cancel",
  faults:
    'a faults run kills, stops and starves the processes of the variant it measures and restarts or cuts the native servers this console shares with it (its sessions and launch records are in PostgreSQL), behind a routed copy of the variant it brings up: the console would lose its own processes mid-run and could neither show nor cancel it',
};

interface ProfileKinds {
  run: string[];
  suite: string[];
  /** Suite profiles that are soaks (they need a saturation rate). */
  soak: string[];
}

/** The profiles of k6/profiles.json by what `bench run` does with them (sweeps and mixes are other commands). */
export function profileKinds(bench: BenchCli): ProfileKinds {
  const kinds: ProfileKinds = { run: [], suite: [], soak: [] };
  try {
    const all = JSON.parse(readFileSync(join(bench.cwd, 'k6', 'profiles.json'), 'utf8')) as Record<string, unknown>;
    const profiles = (all.profiles ?? all) as Record<string, { sweep?: unknown; mix?: unknown; suite?: { kind?: string } }>;
    for (const [name, p] of Object.entries(profiles)) {
      if (!NAME.test(name) || typeof p !== 'object' || p === null || p.sweep || p.mix) continue;
      if (p.suite) {
        kinds.suite.push(name);
        if (p.suite.kind === 'soak') kinds.soak.push(name);
      } else kinds.run.push(name);
    }
  } catch {
    // no profiles: nothing to launch
  }
  return kinds;
}

/** Each plan as the form offers it; a console served by a variant (`servedBy`) says why it refuses some. */
export function planOffers(bench: BenchCli, servedBy?: string): LaunchPlanOffer[] {
  const k = profileKinds(bench);
  return LAUNCH_PLANS.map((plan) => ({ plan, description: DESCRIPTIONS[plan], profiles: plan === 'suite' ? k.suite : plan === 'findings' ? [] : k.run, refused: refusalOf(plan, servedBy) }));
}

/** Why a console served by the variant `servedBy` does not launch the plan; null where it does (always, for the standalone console). */
const refusalOf = (plan: LaunchPlan, servedBy: string | undefined): string | null => (servedBy === undefined ? null : (REFUSED[plan] ?? null));

export type { CheckedLaunch };
export type LaunchCheck = { ok: true; request: CheckedLaunch; args: string[] } | { ok: false; status: 400 | 409 | 422; detail: string; command?: string };

const bad = (detail: string): LaunchCheck => ({ ok: false, status: 400, detail });

/** Whether a soak can find its saturation rate without one given: the newest `bench calibrate` of the preset. */
function hasCalibration(resultsDir: string, preset: string): boolean {
  try {
    return readdirSync(resultsDir).some((f) => f.endsWith(`-${preset}-calibration.json`));
  } catch {
    return false;
  }
}

/** A launch request checked against the plan's options, the presets, the profiles and this console's variant (undefined: the standalone console). */
export function checkLaunch(body: unknown, ctx: { bench: BenchCli; presets: string[]; ownVariant?: string }): LaunchCheck {
  const parsed = launchRequestSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || 'body';
    if (issue.code === 'unrecognized_keys') return bad(`${issue.keys.join(', ')}: not an option of any plan (a launch is {plan, ...its options})`);
    return bad(`${where}: ${issue.message}${where === 'plan' ? ` (the plans: ${LAUNCH_PLANS.join(', ')})` : ''}`);
  }
  const r = parsed.data;
  const plan = r.plan;
  const given = (Object.keys(r) as (keyof LaunchRequest)[]).filter((key) => key !== 'plan' && r[key] !== undefined);
  const foreign = given.filter((key) => !OPTIONS[plan].includes(key));
  if (foreign.length) return bad(`${foreign.join(', ')}: not an option of the ${plan} plan (its options: ${OPTIONS[plan].join(', ')})`);
  const kinds = profileKinds(ctx.bench);
  const known = (p: string) => ctx.presets.includes(p);
  if (plan === 'run' || plan === 'suite' || plan === 'faults') {
    if (!r.preset) return bad(`the ${plan} plan names a preset`);
    if (!known(r.preset)) return bad(`no preset "${r.preset}" (GET /ops/presets lists them)`);
  }
  if (plan === 'matrix') {
    if (!r.presets) return bad('the matrix plan names 2 to 8 presets (presets: [...])');
    const unknown = r.presets.find((p) => !known(p));
    if (unknown) return bad(`no preset "${unknown}" (GET /ops/presets lists them)`);
    if (new Set(r.presets).size !== r.presets.length) return bad('a preset is named twice in the matrix');
  }
  if (plan !== 'findings') {
    if (!r.profile) return bad(`the ${plan} plan names a profile`);
    const allowed = plan === 'suite' ? kinds.suite : kinds.run;
    if (!allowed.includes(r.profile)) {
      if (plan !== 'suite' && kinds.suite.includes(r.profile)) return bad(`"${r.profile}" is a suite profile: launch it as the suite plan`);
      if (plan === 'suite' && kinds.run.includes(r.profile)) return bad(`"${r.profile}" is no suite profile (load, soak, stress, spike and their versions): launch it as the run plan`);
      return bad(`no ${plan === 'suite' ? 'suite' : 'run'} profile "${r.profile}" in k6/profiles.json`);
    }
  }
  if (plan === 'suite') {
    const soak = kinds.soak.includes(r.profile!);
    if (r.saturation !== undefined && !soak) return bad(`saturation applies to a soak only; "${r.profile}" is not one`);
    if (soak && r.saturation === undefined && !hasCalibration(ctx.bench.resultsDir, r.preset!)) return bad(`a soak holds 70 % of ${r.preset}'s sustainable rate: give saturation (it/s), or run npm run bench -- calibrate --variant ${r.preset} first`);
  }
  const args = launchArgs(r);
  const refused = refusalOf(plan, ctx.ownVariant);
  if (refused) return { ok: false, status: 422, detail: `the ${plan} plan is not launched from the console: ${refused}. The standalone console (npm run console), which no variant serves, launches it. Run it from a shell: ${shellCommand(args)}`, command: shellCommand(args) };
  if (ctx.ownVariant !== undefined && r.preset !== ctx.ownVariant)
    return {
      ok: false,
      status: 409,
      detail: `this console is served by ${ctx.ownVariant}, and the launcher holds one variant at a time: bringing up ${r.preset} would take the console down with the run's live page and its Cancel. Launch ${r.preset} from its own console (npm run variant -- up ${r.preset}), or from a shell: ${shellCommand(args)}`,
      command: shellCommand(args),
    };
  return { ok: true, request: { ...r, plan }, args };
}

