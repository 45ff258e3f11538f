/**
 * What the console's trend page shows (GET /ops/trend?preset=<p>[&last=<n>][&profile=<q>]): one
 * preset's recorded runs over time, read by the harness's own reader (`bench trend <preset>
 * --json`, benchmarks/src/compare/trend.ts: the run records `bench compare` reads, the same
 * metrics), served by the server (libs/http ops-trend.ts, checked against its schema) and read by
 * the web app. One declaration for the three.
 */
import type { MachineSpeed, MetricDef } from './compare';

/** One recorded test (results/<run-id>) of the preset: its figures are means over its runs. */
export interface TrendPoint {
  runId: string;
  startedAt: string | null;
  profile: string;
  /** The host's speed probe, when the run recorded one. */
  speed: MachineSpeed | null;
  /** Runs of the test, and how many of them are VALID. */
  runs: number;
  validRuns: number;
  /** The test's verdict (false for a run cancelled from the console). */
  valid: boolean;
  /** Why it is INVALID (each INVALID run's reasons, the cancel's), empty when VALID. */
  invalidReasons: string[];
  /** The runs the figures are the means of: the VALID ones; all of them when none is VALID ('all'); none recorded ('none'). */
  figuresFrom: 'valid' | 'all' | 'none';
  /** OK responses per second, all requests, hold stage. */
  throughput: number | null;
  /** SPS (the submission) p50/p95/p99 of OK responses, hold stage (ms). */
  spsP50: number | null;
  spsP95: number | null;
  spsP99: number | null;
  /** KO / (OK + KO), all requests, hold stage. */
  koShare: number | null;
  /** The variant's CPU seconds per started iteration. */
  cpuSPerIteration: number | null;
  /** Why this run's milliseconds should not be set beside the reference run's (their hosts' probes differ by more than the tolerance), or null. */
  hostWarning: string | null;
}

/** GET /ops/trend: the last runs of one preset, oldest first. */
export interface Trend {
  preset: string;
  /** Only this profile's runs; null: every profile. */
  profile: string | null;
  /** How many runs were asked for (the newest ones). */
  last: number;
  /** Hosts whose speed probes differ by more than this factor (either probe) are flagged. */
  speedTolerance: number;
  /** The run every other run's host is set against: the one with the median probe (scrypt) among the runs that recorded one. */
  reference: { runId: string; speed: MachineSpeed } | null;
  /** The metrics of each point, as `bench compare` defines them (label, unit, better). */
  metrics: Record<'throughput' | 'spsP50' | 'spsP95' | 'spsP99' | 'koShare' | 'cpuSPerIteration', MetricDef>;
  points: TrendPoint[];
  /** The preset's other result folders, not plain tests of a profile (fault and findings runs...), with why. */
  leftOut: { runId: string; reason: string }[];
  /** The same table from a shell. */
  command: string;
}
