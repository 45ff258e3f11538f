/**
 * What the console's comparison page shows (GET /ops/compare): `bench compare`'s result
 * (compare.json, written by the harness in benchmarks/src/compare), one per run against the
 * baseline, read back by the server through these schemas (libs/console-server ops-compare.ts)
 * and read by the web app. The zod schemas are the one declaration for the harness, the server
 * and the browser; the types are read off them.
 */
import { z } from 'zod';
import { differenceSchema } from './figures';

/** One compared metric (benchmarks/src/compare/run-metrics.ts lists them). */
export const metricDefSchema = z.object({
  metric: z.string(),
  label: z.string(),
  unit: z.string(),
  /** Lower is better (latency, KO, CPU, memory) or higher (throughput). */
  better: z.enum(['lower', 'higher']),
});
export type MetricDef = z.infer<typeof metricDefSchema>;

/** How fast a host is (benchmarks/src/machine-speed.ts measures it before the load starts). */
export const machineSpeedSchema = z.object({
  /** One scrypt hash, N = 2^14, r = 8, p = 1, in this process's thread (ms, median). */
  scryptN14Ms: z.number(),
  /** Spawning /bin/true and reaping it (ms, median). */
  spawnMs: z.number(),
  /** The kernel's boot id where the probe ran: two probes of one boot are one host, whatever their figures (the probe sees passing load). */
  bootId: z.string().optional(),
});
export type MachineSpeed = z.infer<typeof machineSpeedSchema>;

export const comparisonRowSchema = differenceSchema.extend({
  type: z.string(),
  def: metricDefSchema,
  /** Significant and in the metric's better direction, worse, or neither. */
  direction: z.enum(['better', 'worse', 'none']),
});
export type ComparisonRow = z.infer<typeof comparisonRowSchema>;

export const sideSummarySchema = z.object({
  ref: z.string(),
  runId: z.string(),
  variant: z.string(),
  profile: z.string(),
  runs: z.array(z.number()),
  excluded: z.array(z.object({ run: z.number(), reasons: z.array(z.string()) })),
  /** The host's speed probe when the result recorded one. */
  speed: machineSpeedSchema.optional(),
});
export type SideSummary = z.infer<typeof sideSummarySchema>;

/** One `bench compare A B` result (compare.json). */
export const comparisonSchema = z.object({
  a: sideSummarySchema,
  b: sideSummarySchema,
  rows: z.array(comparisonRowSchema),
  level: z.number(),
  method: z.string(),
  /** Why the two sides' milliseconds should not be compared (their hosts differ in speed), or null. */
  hostWarning: z.string().nullable(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** What GET /ops/compare answers: the baseline and one `bench compare` result (compare.json) per other run. */
export const nWayComparisonSchema = z.object({
  baseline: z.string(),
  runs: z.array(z.string()),
  commands: z.array(z.string()),
  pairs: z.array(comparisonSchema),
});
export type NWayComparison = z.infer<typeof nWayComparisonSchema>;
