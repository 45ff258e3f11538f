// Types of the pure k6 module paper-metrics.js: the `paper` block it computes (the runner reads it
// from k6's summary; benchmarks/src/types.ts re-exports it) and its functions, for the unit tests.
export function efrFromRacFr(rac: number, fr: number): number;
export function paperMetrics(metrics: Record<string, unknown>, durationS: number, holdS: number, requestTypes: string[], stage?: 'ramp' | 'hold' | null): PaperMetrics;

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
