/**
 * What the console's comparison page shows (GET /ops/compare): `bench compare`'s result
 * (compare.json, written by the harness in benchmarks/src/compare), one per run against the
 * baseline, served as is by the server (libs/http ops-compare.ts) and read by the web app.
 * One declaration for the harness, the server and the browser.
 */

import type { Difference } from '@shellgrade/stats';

/** One compared metric (benchmarks/src/compare/run-metrics.ts lists them). */
export interface MetricDef {
  metric: string;
  label: string;
  unit: string;
  /** Lower is better (latency, KO, CPU, memory) or higher (throughput). */
  better: 'lower' | 'higher';
}

/** How fast a host is (benchmarks/src/machine-speed.ts measures it before the load starts). */
export interface MachineSpeed {
  /** One scrypt hash, N = 2^14, r = 8, p = 1, in this process's thread (ms, median). */
  scryptN14Ms: number;
  /** Spawning /bin/true and reaping it (ms, median). */
  spawnMs: number;
  /** The kernel's boot id where the probe ran: two probes of one boot are one host, whatever their figures (the probe sees passing load). */
  bootId?: string;
}

export interface ComparisonRow extends Difference {
  type: string;
  def: MetricDef;
  /** Significant and in the metric's better direction, worse, or neither. */
  direction: 'better' | 'worse' | 'none';
}

export interface SideSummary {
  ref: string;
  runId: string;
  variant: string;
  profile: string;
  runs: number[];
  excluded: { run: number; reasons: string[] }[];
  /** The host's speed probe when the result recorded one. */
  speed?: MachineSpeed;
}

/** One `bench compare A B` result (compare.json). */
export interface Comparison {
  a: SideSummary;
  b: SideSummary;
  rows: ComparisonRow[];
  level: number;
  method: string;
  /** Why the two sides' milliseconds should not be compared (their hosts differ in speed), or null. */
  hostWarning: string | null;
}

/** What GET /ops/compare answers: the baseline and one `bench compare` result (compare.json) per other run. */
export interface NWayComparison {
  baseline: string;
  runs: string[];
  commands: string[];
  pairs: Comparison[];
}
