/**
 * A console launch (GET/POST /ops/launches, GET /ops/launches/<id>[/events]): recorded and served
 * by the server (libs/http ops-launch-record.ts, ops-launch.ts), read by the web app. One
 * declaration for both sides; the server's record schema is checked against it.
 */
import type { LaunchProgress } from './launch-progress';

/** A launch as recorded beside the results (run/console/launches/<run-id>.json) and as served. */
export interface LaunchRecord {
  id: string;
  /** What was launched: run or suite anywhere; matrix, findings and faults from the standalone console only (LaunchPlanOffer.refused). */
  plan: LaunchPlan;
  /** run, suite, faults: the preset; null for matrix and findings (several presets). */
  preset: string | null;
  /** The k6 profile; null for findings (its plan sets the loads). */
  profile: string | null;
  /**
   * The folder under results/ the launch writes as a whole: the run folder (run, suite), the
   * findings folder (findings/<id>); null for matrix and faults, whose harness names one folder
   * per run it makes.
   */
  results: string | null;
  /** The harness's arguments (`run --variant <preset> --profile <profile> --run-id <id>`). */
  args: string[];
  /** The command a shell user would type for it. */
  command: string;
  /** The harness's pid (and process group); null when the spawn gave none. */
  pid: number | null;
  /** The harness's log file (its stdout and stderr). */
  log: string;
  startedAt: string;
  endedAt: string | null;
  exitCode: number | null;
  state: 'running' | 'finished' | 'failed' | 'cancelled';
  /** Who cancelled the run, when and from where (the audit); null when it was not cancelled. */
  cancelled: { at: string; by: string; from: string } | null;
}

/** One server-sent event of GET /ops/launches/<id>/events. */
export interface LaunchEvent {
  launch: LaunchRecord;
  elapsedS: number;
  progress: LaunchProgress;
}

/** GET /ops/launches: the launches, newest first, the profiles a run may name, each plan offered, and the launch holding the machine (null: free). */
export interface LaunchList {
  launches: LaunchRecord[];
  /** The profiles of the run plan (as before the other plans: the run plan's). */
  profiles: string[];
  plans: LaunchPlanOffer[];
  /** The variant serving this console: the only preset a run or suite may bring up from here (null: any — the standalone console, `npm run console`, served by no variant). */
  ownVariant: string | null;
  busy: string | null;
}

/** The saved plans of the bench CLI (`npm run bench -- --help`): run, a suite (run with a suite profile), matrix, findings, faults. */
export const LAUNCH_PLANS = ['run', 'suite', 'matrix', 'findings', 'faults'] as const;
export type LaunchPlan = (typeof LAUNCH_PLANS)[number];
/** What a console served by a variant launches: a plan that brings up no other preset (the standalone console launches every plan). */
export type LaunchablePlan = Extract<LaunchPlan, 'run' | 'suite'>;
export const FINDINGS_MODES = ['smoke', 'quick', 'full'] as const;

/** One plan as the launch form offers it: what it runs, its profiles, and why the console refuses it (null: it launches). */
export interface LaunchPlanOffer {
  plan: LaunchPlan;
  description: string;
  profiles: string[];
  refused: string | null;
}

/** POST /ops/launches: a plan and its options (the server validates each; unknown fields are refused). */
export interface LaunchRequest {
  plan?: LaunchPlan;
  /** run, suite, faults: the preset. */
  preset?: string;
  /** matrix: its presets, in order. */
  presets?: string[];
  profile?: string;
  /** run, matrix: runs per test (1–10; default: the profile's). */
  runs?: number;
  /** run, suite: the profile's peak (iterations/s) or a suite's first step's rate. */
  peak?: number;
  /** suite (soak): the sustainable rate (it/s) it holds 70 % of. */
  saturation?: number;
  /** findings: --smoke, --quick or the full plan. */
  mode?: (typeof FINDINGS_MODES)[number];
  /** faults: "all" or a comma-separated list of <kind>:<role|server|hop>. */
  faults?: string;
}

/**
 * The harness's arguments for a validated request, without --run-id (the server adds it): what
 * `npm run bench -- <args>` runs. One function for the form's preview and the server's spawn.
 */
export function launchArgs(r: LaunchRequest): string[] {
  const plan = r.plan ?? 'run';
  const opt = (flag: string, v: number | string | undefined) => (v === undefined ? [] : [flag, String(v)]);
  switch (plan) {
    case 'run':
    case 'suite':
      return ['run', '--variant', r.preset ?? '', '--profile', r.profile ?? '', ...opt('--runs', r.runs), ...opt('--peak', r.peak), ...opt('--saturation', r.saturation)];
    case 'matrix':
      return ['matrix', ...(r.presets ?? []), '--profile', r.profile ?? '', ...opt('--runs', r.runs)];
    case 'findings':
      return ['findings', ...(r.mode === 'full' || r.mode === undefined ? [] : [`--${r.mode}`])];
    case 'faults':
      return ['faults', '--variant', r.preset ?? '', '--faults', r.faults ?? 'all', '--profile', r.profile ?? ''];
  }
}
