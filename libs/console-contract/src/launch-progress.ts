/**
 * What the console's live page of a launched run shows (GET /ops/launches/<id>/events): written
 * by the server (libs/console-server ops-launch-progress.ts) from what the harness itself
 * writes, read by the web app. The zod schemas are the one declaration; the types are read off them.
 */
import { z } from 'zod';

export const stepProgressSchema = z.object({
  step: z.number(),
  ok: z.number(),
  ko: z.number(),
  /** KO per cause (the client's error code or status). */
  koCauses: z.record(z.string(), z.number()),
  p95Ms: z.number().nullable(),
  /** OK SPS per second between the step's first and last request. */
  throughput: z.number().nullable(),
});
export type StepProgress = z.infer<typeof stepProgressSchema>;

export const runProgressSchema = z.object({
  run: z.number(),
  steps: z.array(stepProgressSchema),
  /** null until run-N.json is written. */
  valid: z.boolean().nullable(),
  reasons: z.array(z.string()),
});
export type RunProgress = z.infer<typeof runProgressSchema>;

export const launchProgressSchema = z.object({
  stage: z.string(),
  /** The last few progress lines of the harness. */
  lines: z.array(z.string()),
  runs: z.array(runProgressSchema),
  /** From aggregated.json once the test ended. */
  verdict: z.object({ valid: z.boolean(), validRuns: z.number(), runsAsked: z.number() }).nullable(),
});
export type LaunchProgress = z.infer<typeof launchProgressSchema>;
