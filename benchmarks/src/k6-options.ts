/**
 * The runner → k6 interface: one JSON options file per k6 process, written into the run folder
 * (it documents what k6 was told) and handed to k6 as its only variable, SG_K6_OPTIONS. The k6
 * scripts (benchmarks/sps.js, mix.js, sweep.js) read it in their init context (k6/lib/options.js);
 * what the file leaves out comes from the named profile of k6/profiles.json, as before.
 * Validated here, before k6 starts: a missing or wrong field is the runner's error, not k6's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/** The one variable k6 gets: the options file's path. */
export const K6_OPTIONS_ENV = 'SG_K6_OPTIONS';
export const K6_OPTIONS_SCHEMA = 'shellgrade.k6-options/1';

const seconds = z.number().nonnegative();
const path = z.string().min(1);
const url = z.string().regex(/^https?:\/\/[^\s/]+/, 'an http(s) URL');
const stepSchema = z.strictObject({ rate: z.number().int().min(1), holdS: z.number().positive() });

/** What every script needs: where to send load, as whom, where to write its summary. */
const common = {
  schema: z.literal(K6_OPTIONS_SCHEMA),
  /** k6/profiles.json profile; the fields below override it. */
  profile: z.string().min(1),
  baseUrl: url,
  usersCsv: path,
  summaryJson: path,
  /** Request timeout (default: the profile's, else 60 s). */
  timeoutS: seconds.optional(),
  rampS: seconds.optional(),
  holdS: seconds.optional(),
};

/** benchmarks/sps.js: the paper's scenario R (open model), its suites (steps). */
export const spsOptionsSchema = z.strictObject({
  ...common,
  script: z.literal('sps'),
  summaryTxt: path,
  /** The archive every student submits. */
  archive: path,
  /** Its production_data JSON, written once by the runner (production-data.ts); default: built from archive. */
  productionData: path.optional(),
  /** Origin header of every request (default http://localhost:4200, the SPA's). */
  origin: url.optional(),
  peak: seconds.optional(),
  pauseS: seconds.optional(),
  apdexTMs: seconds.optional(),
  apdexFMs: seconds.optional(),
  thresholds: z.boolean().optional(),
  /** One console line per SPS (trace id, ep_id): traces/ and the audit read them. */
  logSps: z.boolean(),
  /** One console line per request and per iteration (suites' timelines, the faults' series). */
  logRequests: z.boolean(),
  /** The variant's reply: a sync variant's 202 is not the feedback the student waited for. */
  reply: z.enum(['sync', 'async']),
  pollS: seconds.optional(),
  pollMaxS: seconds.optional(),
  connectionReuse: z.boolean().optional(),
  arrivals: z.enum(['even', 'exponential']).optional(),
  /** Exponential arrivals: ticks per user (>= 2). */
  oversample: z.number().min(2).optional(),
  honourRetryAfter: z.boolean().optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  /** Suites: the steps as resolved by the runner (a soak's rate, --peak scaling). */
  steps: z.array(stepSchema).min(1).optional(),
  transitionS: z.number().min(1).optional(),
});
export type SpsK6Options = z.infer<typeof spsOptionsSchema>;

/** benchmarks/mix.js: paper 003's request mixes. */
export const mixOptionsSchema = z.strictObject({
  ...common,
  script: z.literal('mix'),
  pattern: z.enum(['aggregation', 'offloading', 'pipeline']),
  /** The gateway answers GET /api/dashboard (else the client builds the page from three calls). */
  aggregated: z.boolean(),
  ps: z.array(z.number().min(0).max(1)).min(1).optional(),
  vus: z.number().int().min(1).optional(),
  gapS: seconds.optional(),
});
export type MixK6Options = z.infer<typeof mixOptionsSchema>;

/** benchmarks/sweep.js: paper 001's closed-model thread sweep. */
export const sweepOptionsSchema = z.strictObject({
  ...common,
  script: z.literal('sweep'),
  class: z.enum(['s1', 's2']),
  vus: z.array(z.number().int().min(1)).min(1).optional(),
  gapS: seconds.optional(),
  /** The seeded session's teacher (default teacher1@shellgrade.test / teacher-password). */
  teacherEmail: z.string().min(1).optional(),
  teacherPassword: z.string().min(1).optional(),
});
export type SweepK6Options = z.infer<typeof sweepOptionsSchema>;

export const k6OptionsSchema = z.discriminatedUnion('script', [spsOptionsSchema, mixOptionsSchema, sweepOptionsSchema]);
export type K6Options = z.infer<typeof k6OptionsSchema>;

/** Options without the schema tag (the writer adds it); one script's fields at a time. */
export type K6OptionsInput<T extends K6Options = K6Options> = T extends unknown ? Omit<T, 'schema'> : never;

/** Validated options, or an error naming every bad field (`where`: the file or the caller). */
export function parseK6Options(value: unknown, where = 'k6 options'): K6Options {
  const r = k6OptionsSchema.safeParse(value);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(file)'}: ${i.message}`);
  throw new Error(`${where} is not a valid ${K6_OPTIONS_SCHEMA} file: ${problems.join('; ')}`);
}

/** Validates and writes the options to `file` (kept in the run folder); returns what was written. */
export function writeK6Options<T extends K6Options>(file: string, options: K6OptionsInput<T>): T {
  const valid = parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...options }, `k6 options for ${file}`) as T;
  writeFileSync(file, JSON.stringify(valid, null, 2) + '\n');
  return valid;
}

export function readK6Options(file: string): K6Options {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`k6 options ${file}: ${(err as Error).message}`);
  }
  return parseK6Options(raw, `k6 options ${file}`);
}

/** k6 command-line arguments handing it the options file. */
export function k6OptionsArgs(file: string): string[] {
  return ['-e', `${K6_OPTIONS_ENV}=${file}`];
}
