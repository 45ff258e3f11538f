import type { PlacementRecord } from './placement/session';
import type { Estimate } from './aggregate';
import type { Audit } from './audit';
import type { Baseline } from './baseline';
import type { CrashEvent } from './crash-watch';
import type { EnergyEstimate, PowerModel } from './energy';
import type { MachineFacts } from './machine';
import type { Profile } from './profiles';
import type { ResourceSummary } from './resource-summary';
import type { QuietWait } from './quiet';
import type { PaperMetrics } from '../../k6/lib/paper-metrics';

// The `paper` block k6 writes: its shape is declared beside the module that computes it.
export type { PaperMetrics, RequestTypeMetrics } from '../../k6/lib/paper-metrics';

export interface RunRecord {
  run: number;
  startedAt: string;
  endedAt: string;
  k6ExitCode: number;
  valid: boolean;
  reasons: string[];
  paper: PaperMetrics;
  resources: ResourceSummary;
  derived: {
    cpuSPerOk: number | null;
    machineCpuSPerOk: number | null;
    /** CPU seconds per iteration started (scenario R: one new user), variant processes / machine minus client. */
    cpuSPerIteration: number | null;
    machineCpuSPerIteration: number | null;
    /** The client's own CPU (k6) per iteration started: what bounds an overload test on one machine; absent in runs recorded before it. */
    k6CpuSPerIteration?: number | null;
    /** Measured (RAPL), null when the machine has no counters. */
    energyWh: number | null;
    /** Linear CPU-utilisation model: an estimate (meta.powerModel), never a measurement. */
    energyEstimate: EnergyEstimate | null;
  };
  /** Variant processes that exited during the run (the run counts, with the KOs they caused). */
  crashes: CrashEvent[];
  /** pm2 restart count increase per process over the run. */
  restarts: Record<string, number>;
  audit: Audit | null;
  /** k6's own HTML report of this run (file name in the run folder). */
  dashboard: string | null;
  loadAvg1: { before: number; after: number };
  /** The wait for an idle system before the load (quiet.ts); absent when the run did not wait (runs before it, or outside findings without --quiet-wait). */
  quietBeforeLoad?: QuietWait | null;
}

export interface TestMeta {
  runId: string;
  variant: string;
  profileName: string;
  profile: Profile;
  topology: string;
  /** http | grpc: the internal hops (absent in runs recorded before transports existed). */
  transport?: string;
  replicas: Record<string, number>;
  tracing: boolean;
  /** auth.kdfCost the students were seeded with and new hashes use (absent in older runs: the default 14). */
  kdfCost?: number;
  entry: string;
  /** Start of the measured runs (after seeding and warm-up) and end of the last one. */
  startedAt: string;
  endedAt?: string;
  machine: MachineFacts;
  apdexTMs: number;
  /** The sandboxed grader-only baseline as copied into the run folder when the test started. */
  baseline?: Baseline | null;
  powerModel?: PowerModel;
  /** cgroup v1 / cgroup v2 / proc: how group CPU was measured. */
  cpuAccounting?: string;
  /** Where the machine's CPU comes from: the root cgroup's counter, or /proc/stat's ticks (absent in older runs: /proc/stat). */
  machineCpuAccounting?: string;
  /** Client and system under test on cpusets of their own: on, off or unavailable, why, and what was placed (absent in older runs: off). */
  placement?: PlacementRecord;
  /** The warm-up: run, or skipped because these very processes served scenario R moments before (absent in older runs: run). */
  warmUp?: { skipped: false } | { skipped: true; warmedBy: string; agoS: number };
}

/** One line per run in aggregated.json: INVALID runs are listed with their reasons, never averaged. */
export interface RunLine {
  run: number;
  valid: boolean;
  reasons: string[];
  efr_paper: number | null;
  ko_rate: number | null;
  crashes: string[];
  audit: string | null;
  dashboard: string | null;
}

export interface Aggregated {
  schema: 'shellgrade.bench-aggregated/2';
  meta: TestMeta;
  /** Runs asked for (the profile's or --runs) and runs done. */
  runsAsked: number;
  runs: number;
  validRuns: number;
  valid: boolean;
  invalidReasons: string[];
  runLines: RunLine[];
  /** Estimates over the VALID runs only, keyed by metric path: "RAC", "stages.hold.efr_paper", ... */
  paper: Record<string, Estimate>;
  resources: Record<string, Estimate>;
}
