import type { Estimate } from './aggregate';
import type { MachineFacts } from './machine';
import type { Profile } from './profiles';
import type { ResourceSummary } from './resource-summary';

/** The `paper` block written by benchmarks/sps.js handleSummary (k6/lib/paper-metrics.js). */
export interface PaperMetrics {
  vus: number;
  N: number;
  OK: number;
  KO: number;
  unexpected: number;
  RAC: number | null;
  FR: number | null;
  EFR: number | null;
  sps: {
    N: number;
    OK: number;
    KO: number;
    unexpected: number;
    FR: number | null;
    EFR: number | null;
    throughput: number | null;
    throughputHold: number | null;
    p50: number | null;
    p95: number | null;
    p99: number | null;
  };
  buckets: { lt800: number | null; b800_1200: number | null; ge1200: number | null };
  apdex: number | null;
  throughput: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  durationS: number;
  droppedIterations: number;
  vusMax: number | null;
  checksRate: number | null;
  perType: Record<string, RequestTypeMetrics>;
  /** Time to feedback: SPS sent -> grade known, from the reply (201) or by polling after a 202. */
  feedback?: { reply: number; polled: number; missing: number; p50: number | null; p95: number | null; max: number | null; polls: number; pollsFailed: number };
}

/** Outcome counts of one request type and its OK response-time percentiles (ms). */
export interface RequestTypeMetrics {
  ok: number;
  ko: number;
  unexpected: number;
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
  derived: { cpuSPerOk: number | null; machineCpuSPerOk: number | null; energyWh: number | null };
  restarts: Record<string, number>;
  loadAvg1: { before: number; after: number };
}

export interface TestMeta {
  runId: string;
  variant: string;
  profileName: string;
  profile: Profile;
  topology: string;
  replicas: Record<string, number>;
  tracing: boolean;
  entry: string;
  /** Start of the measured runs (after seeding and warm-up) and end of the last one. */
  startedAt: string;
  endedAt?: string;
  machine: MachineFacts;
  apdexTMs: number;
}

export interface Aggregated {
  schema: 'shellgrade.bench-aggregated/1';
  meta: TestMeta;
  runs: number;
  validRuns: number;
  valid: boolean;
  invalidReasons: string[];
  /** Estimates keyed by metric path: "RAC", "sps.EFR", "buckets.lt800", ... */
  paper: Record<string, Estimate>;
  resources: Record<string, Estimate>;
}
