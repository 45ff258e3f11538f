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

/** The `paper` block written by benchmarks/sps.js handleSummary (k6/lib/paper-metrics.js); definitions in benchmarks/METRICS.md. */
export interface PaperMetrics {
  vus: number;
  N: number;
  OK: number;
  KO: number;
  /** N − OK − KO: requests never sent (after a failed login, or cut by the end of the test). */
  notSent: number;
  RAC: number | null;
  FR: number | null;
  /** (N − OK) / N = 1 − RAC·(1 − FR): the EFR paper 000 publishes in its tables. */
  efr_paper: number | null;
  /** KO / N: what §IV-C's text calls EFR. */
  ko_rate: number | null;
  koCauses: Record<string, number>;
  /** Every iteration ends OK or KO (with the cause of its first failure, or cut_by_graceful_stop). */
  iterations: { started: number; ok: number; ko: number; koCauses: Record<string, number> };
  sps: {
    N: number;
    OK: number;
    KO: number;
    /** SPS answered 201/202: what the platform told the client it accepted. */
    accepted: number;
    FR: number | null;
    efr_paper: number | null;
    ko_rate: number | null;
    throughput: number | null;
    throughputHold: number | null;
    p50: number | null;
    p95: number | null;
    p99: number | null;
  };
  buckets: { lt800: number | null; b800_1200: number | null; ge1200: number | null };
  apdex: number | null;
  throughput: number | null;
  /** Mean of OK response times (ms); absent in runs recorded before it was added. */
  avg?: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  durationS: number;
  droppedIterations: number;
  clientErrors: number;
  vusMax: number | null;
  checksRate: number | null;
  perType: Record<string, RequestTypeMetrics>;
  /** Time to feedback: SPS sent -> grade known, from the reply (201) or by polling after a 202. */
  feedback?: {
    reply: number;
    polled: number;
    missing: number;
    p50: number | null;
    p95: number | null;
    max: number | null;
    polls: number;
    pollsFailed: number;
    /** SPS refused with 503 + Retry-After and sent again (profiles honouring Retry-After); absent in older runs. */
    refused?: number;
    retryWaitP95S?: number | null;
  };
  /** Logins refused with 503 + Retry-After (a bounded password check) and sent again; absent in older runs. */
  logins?: { refused: number; retryWaitP95S: number | null };
  /** The same metrics over the iterations that started in each stage (tables use `hold`). */
  stages?: { ramp: PaperMetrics; hold: PaperMetrics };
}

/** Outcome counts of one request type and its OK response-time percentiles (ms). */
export interface RequestTypeMetrics {
  ok: number;
  ko: number;
  p50?: number | null;
  p95?: number | null;
  p99?: number | null;
  max?: number | null;
}

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
