/**
 * What the console's trend page shows (GET /ops/trend?preset=<p>[&last=<n>][&profile=<q>]): one
 * preset's recorded runs over time, read by the harness's own reader (`bench trend --variant <preset>
 * --json`, benchmarks/src/compare/trend.ts: the run records `bench compare` reads, the same
 * metrics), checked by the server against the schema before it is served (libs/console-server
 * ops-trend.ts) and read by the web app. The zod schemas are the one declaration for the three.
 */
import { z } from 'zod';
import { machineSpeedSchema, metricDefSchema } from './compare';

const num = z.number().nullable();

/** One recorded test (results/<run-id>) of the preset: its figures are means over its runs. */
export const trendPointSchema = z.object({
  runId: z.string(),
  startedAt: z.string().nullable(),
  profile: z.string(),
  /** The host's speed probe, when the run recorded one. */
  speed: machineSpeedSchema.nullable(),
  /** Runs of the test, and how many of them are VALID. */
  runs: z.number(),
  validRuns: z.number(),
  /** The test's verdict (false for a run cancelled from the console). */
  valid: z.boolean(),
  /** Why it is INVALID (each INVALID run's reasons, the cancel's), empty when VALID. */
  invalidReasons: z.array(z.string()),
  /** The runs the figures are the means of: the VALID ones; all of them when none is VALID ('all'); none recorded ('none'). */
  figuresFrom: z.enum(['valid', 'all', 'none']),
  /** OK responses per second, all requests, hold stage. */
  throughput: num,
  /** SPS (the submission) p50/p95/p99 of OK responses, hold stage (ms). */
  spsP50: num,
  spsP95: num,
  spsP99: num,
  /** KO / (OK + KO), all requests, hold stage. */
  koShare: num,
  /** The variant's CPU seconds per started iteration. */
  cpuSPerIteration: num,
  /** Why this run's milliseconds should not be set beside the reference run's (their hosts' probes differ by more than the tolerance), or null. */
  hostWarning: z.string().nullable(),
});
export type TrendPoint = z.infer<typeof trendPointSchema>;

/** GET /ops/trend: the last runs of one preset, oldest first. */
export const trendSchema = z.object({
  preset: z.string(),
  /** Only this profile's runs; null: every profile. */
  profile: z.string().nullable(),
  /** How many runs were asked for (the newest ones). */
  last: z.number(),
  /** Hosts whose speed probes differ by more than this factor (either probe) are flagged. */
  speedTolerance: z.number(),
  /** The run every other run's host is set against: the one with the median probe (scrypt) among the runs that recorded one. */
  reference: z.object({ runId: z.string(), speed: machineSpeedSchema }).nullable(),
  /** The metrics of each point, as `bench compare` defines them (label, unit, better). */
  metrics: z.object({
    throughput: metricDefSchema,
    spsP50: metricDefSchema,
    spsP95: metricDefSchema,
    spsP99: metricDefSchema,
    koShare: metricDefSchema,
    cpuSPerIteration: metricDefSchema,
  }),
  points: z.array(trendPointSchema),
  /** The preset's other result folders, not plain tests of a profile (fault and findings runs...), with why. */
  leftOut: z.array(z.object({ runId: z.string(), reason: z.string() })),
  /** The same table from a shell. */
  command: z.string(),
});
export type Trend = z.infer<typeof trendSchema>;
