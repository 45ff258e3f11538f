/**
 * A console launch (GET/POST /ops/launches, GET /ops/launches/<id>[/events]): checked, recorded
 * and served by the server (libs/console-server ops-launch-plans.ts, ops-launch-record.ts,
 * ops-launch.ts), sent and read by the web app. The zod schemas are the one declaration — the
 * request the server validates, the record it reads back — and the types are read off them.
 */
import { z } from 'zod';
import { launchProgressSchema } from './launch-progress';

/** The saved plans of the bench CLI (`npm run bench -- --help`): run, a suite (run with a suite profile), matrix, findings, faults. */
export const LAUNCH_PLANS = ['run', 'suite', 'matrix', 'findings', 'faults'] as const;
export type LaunchPlan = (typeof LAUNCH_PLANS)[number];
/** What a console served by a variant launches: a plan that brings up no other preset (the standalone console launches every plan). */
export type LaunchablePlan = Extract<LaunchPlan, 'run' | 'suite'>;
export const FINDINGS_MODES = ['smoke', 'quick', 'full'] as const;
export const LAUNCH_STATES = ['running', 'finished', 'failed', 'cancelled'] as const;

/** A launch as recorded beside the results (run/console/launches/<run-id>.json) and as served. */
export const launchRecordSchema = z.object({
  id: z.string(),
  /** What was launched: run or suite anywhere; matrix, findings and faults from the standalone console only (LaunchPlanOffer.refused). */
  plan: z.enum(LAUNCH_PLANS),
  /** run, suite, faults: the preset; null for matrix and findings (several presets). */
  preset: z.string().nullable(),
  /** The k6 profile; null for findings (its plan sets the loads). */
  profile: z.string().nullable(),
  /**
   * The folder under results/ the launch writes as a whole: the run folder (run, suite), the
   * findings folder (findings/<id>); null for matrix and faults, whose harness names one folder
   * per run it makes. Absent in records written before the other plans were launched (all ended runs, read only).
   */
  results: z.string().nullable().default(null),
  /** The harness's arguments (`run --variant <preset> --profile <profile> --run-id <id>`). */
  args: z.array(z.string()),
  /** The command a shell user would type for it. */
  command: z.string(),
  /** The harness's pid (and process group); null when the spawn gave none. */
  pid: z.number().nullable(),
  /** The harness's log file (its stdout and stderr). */
  log: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  state: z.enum(LAUNCH_STATES),
  /** Who cancelled the run, when and from where (the audit); null when it was not cancelled. */
  cancelled: z.object({ at: z.string(), by: z.string(), from: z.string() }).nullable(),
});
export type LaunchRecord = z.infer<typeof launchRecordSchema>;

/** One server-sent event of GET /ops/launches/<id>/events. */
export const launchEventSchema = z.object({ launch: launchRecordSchema, elapsedS: z.number(), progress: launchProgressSchema });
export type LaunchEvent = z.infer<typeof launchEventSchema>;

/** One plan as the launch form offers it: what it runs, its profiles, and why the console refuses it (null: it launches). */
export const launchPlanOfferSchema = z.object({ plan: z.enum(LAUNCH_PLANS), description: z.string(), profiles: z.array(z.string()), refused: z.string().nullable() });
export type LaunchPlanOffer = z.infer<typeof launchPlanOfferSchema>;

/** GET /ops/launches: the launches, newest first, the profiles a run may name, each plan offered, and the launch holding the machine (null: free). */
export const launchListSchema = z.object({
  launches: z.array(launchRecordSchema),
  /** The profiles of the run plan (as before the other plans: the run plan's). */
  profiles: z.array(z.string()),
  plans: z.array(launchPlanOfferSchema),
  /** The variant serving this console: the only preset a run or suite may bring up from here (null: any — the standalone console, `npm run console`, served by no variant). */
  ownVariant: z.string().nullable(),
  busy: z.string().nullable(),
});
export type LaunchList = z.infer<typeof launchListSchema>;

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const FAULT = /^[a-z][a-z-]*:[a-z0-9][a-z0-9-]*$/;
const presetName = () => z.string().regex(NAME, 'a preset name (lower-case letters, digits, "-")');

/** POST /ops/launches: a plan and its options (the server checks each against the plan; unknown fields are refused). */
export const launchRequestSchema = z
  .object({
    plan: z.enum(LAUNCH_PLANS).default('run'),
    /** run, suite, faults: the preset. */
    preset: presetName().optional(),
    /** matrix: its presets, in order. */
    presets: z.array(presetName()).min(2, 'a matrix names 2 to 8 presets').max(8, 'a matrix names 2 to 8 presets').optional(),
    profile: z.string().regex(NAME, 'a profile name (lower-case letters, digits, "-")').optional(),
    /** run, matrix: runs per test (1–10; default: the profile's). */
    runs: z.number().int().min(1).max(10).optional(),
    /** run, suite: the profile's peak (iterations/s) or a suite's first step's rate. */
    peak: z.number().positive().max(200).optional(),
    /** suite (soak): the sustainable rate (it/s) it holds 70 % of. */
    saturation: z.number().positive().max(200).optional(),
    /** findings: --smoke, --quick or the full plan. */
    mode: z.enum(FINDINGS_MODES).optional(),
    /** faults: "all" or a comma-separated list of <kind>:<role|server|hop>. */
    faults: z
      .string()
      .max(400)
      .refine((f) => f === 'all' || f.split(',').every((x) => FAULT.test(x)), 'all, or <kind>:<role|server|hop>[,...] (bench faults --list)')
      .optional(),
  })
  .strict();
/** What the browser sends (plan defaults to run). */
export type LaunchRequest = z.input<typeof launchRequestSchema>;
/** What the server checked: the plan named. */
export type CheckedLaunch = z.output<typeof launchRequestSchema>;

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
      return ['matrix', '--variants', (r.presets ?? []).join(','), '--profile', r.profile ?? '', ...opt('--runs', r.runs)];
    case 'findings':
      return ['findings', ...(r.mode === 'full' || r.mode === undefined ? [] : [`--${r.mode}`])];
    case 'faults':
      return ['faults', '--variant', r.preset ?? '', '--faults', r.faults ?? 'all', '--profile', r.profile ?? ''];
  }
}
