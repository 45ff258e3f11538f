/**
 * What the console lists (GET /ops/presets, GET /ops/runs): written by the server
 * (libs/console-server ops-results.ts), read by the web app. The zod schemas are the one
 * declaration; the types are read off them.
 */
import { z } from 'zod';

/** Run folders are named by the benchmark CLI: <UTC stamp>-<variant>-<profile>... */
export const RUN_ID = /^\d{8}T\d{6}Z[A-Za-z0-9._-]*$/;

/** One preset as the console lists it (what the wiring reads from infra/variants). */
export const presetSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  topology: z.string().optional(),
  dispatch: z.string().optional(),
  transport: z.string().optional(),
  gateway: z.string().optional(),
  /** Set instead of the facts when the preset does not load. */
  error: z.string().optional(),
});
export type PresetSummary = z.infer<typeof presetSummarySchema>;

/** GET /ops/presets. */
export const presetListSchema = z.object({ presets: z.array(presetSummarySchema) });
export type PresetList = z.infer<typeof presetListSchema>;

/** One benchmark run of the results folder. */
export const runSummarySchema = z.object({
  id: z.string(),
  variant: z.string().nullable(),
  profile: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  runsAsked: z.number().nullable(),
  validRuns: z.number().nullable(),
  valid: z.boolean().nullable(),
  /** Report files, relative to the run folder (e.g. report/report.html, k6-dashboard-run-1.html). */
  files: z.array(z.string()),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** GET /ops/runs. */
export const runListSchema = z.object({ resultsDir: z.string(), runs: z.array(runSummarySchema) });
export type RunList = z.infer<typeof runListSchema>;
