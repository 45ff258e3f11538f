// The arithmetic of one fault run on the request series k6 logged (LOG_REQUESTS=on): figures per
// window (before, during, after), time to first error, time to recovery. Pure: tested on recorded series.
import type { FaultWindow } from '@shellgrade/console-contract';
import { REQUESTS_PER_ITERATION, type IterationSample, type RequestSample } from '../suites/samples';

export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * One window's figures, declared once in the console contract (FaultWindow: the console reads
 * them): N counts the requests planned in the window (paper 000 §IV-C: 10 per iteration), each by
 * the time it was sent — the requests sent in it plus the 8 a login failed in it left unsent;
 * RAC = (OK+KO)/N and EFR = (N−OK)/N over the same requests; p95Ms of successful requests.
 */
export interface WindowFigures extends FaultWindow {
  fromMs: number;
  toMs: number;
}

const inSpan = (t: number, s: Span) => t >= s.fromMs && t < s.toMs;

/** Nearest-rank percentile (the value at rank ceil(q·n)). */
export function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/** Requests an iteration of scenario R has sent when a failed login ends it (its preflight and the login); the rest are never sent (k6/lib/scenario-r.js userR). */
const SENT_UP_TO_LOGIN = 2;

/**
 * Rule: a request counts in the window it was sent in (its start `t`), in N as in OK/KO; one never
 * sent counts where the failed login that stopped its iteration was sent. (N by iteration start
 * with OK/KO by request start charged requests sent past a window's end to the next window's OK
 * but this one's N: EFR < 0 there. A request line does not name its iteration, so N cannot follow
 * the iteration rule.) The windows add up to the run; ΣN = 10 × iterations when each iteration
 * ran to its end or to a failed login. `_iterations`: unused since, kept for the callers.
 */
export function windowFigures(requests: RequestSample[], _iterations: IterationSample[], s: Span): WindowFigures {
  const rs = requests.filter((r) => inSpan(r.t, s));
  const ok = rs.filter((r) => r.outcome === 'ok');
  const ko = rs.filter((r) => r.outcome === 'ko');
  const failedLogins = ko.filter((r) => r.type === 'login').length;
  const N = rs.length + failedLogins * (REQUESTS_PER_ITERATION - SENT_UP_TO_LOGIN);
  const koCauses: Record<string, number> = {};
  for (const r of ko) koCauses[r.cause ?? 'unknown'] = (koCauses[r.cause ?? 'unknown'] ?? 0) + 1;
  return {
    ...s,
    N,
    OK: ok.length,
    KO: ko.length,
    RAC: N > 0 ? (ok.length + ko.length) / N : null,
    EFR: N > 0 ? (N - ok.length) / N : null,
    koCauses,
    p95Ms: percentile(ok.map((r) => r.ms), 0.95),
  };
}

/** Time from the inject to the first KO that ended at or after it (ms); null when none ended before `untilMs`. */
export function timeToFirstErrorMs(requests: RequestSample[], injectedAtMs: number, untilMs: number): number | null {
  const ends = requests.filter((r) => r.outcome === 'ko').map((r) => r.t + r.ms).filter((end) => end >= injectedAtMs && end < untilMs);
  return ends.length ? Math.min(...ends) - injectedAtMs : null;
}

export interface Recovery {
  /** p95 of the window before the fault and the bound it must come back under: +tolerance. */
  baselineP95Ms: number | null;
  thresholdMs: number | null;
  recovered: boolean;
  /** From the inject / from the undo (≥ 0) to the start of the first bucket from which every bucket with requests is recovered. */
  sinceInjectMs: number | null;
  sinceUndoMs: number | null;
  /** The last bucket's p95 and its KO count: the figure of a run that did not recover. */
  lastP95Ms: number | null;
  lastKO: number;
  bucketMs: number;
}

interface Bucket {
  fromMs: number;
  requests: number;
  ko: number;
  p95Ms: number | null;
}

function buckets(requests: RequestSample[], fromMs: number, toMs: number, bucketMs: number): Bucket[] {
  const out: Bucket[] = [];
  for (let b = fromMs; b < toMs; b += bucketMs) {
    const rs = requests.filter((r) => inSpan(r.t, { fromMs: b, toMs: Math.min(b + bucketMs, toMs) }));
    out.push({ fromMs: b, requests: rs.length, ko: rs.filter((r) => r.outcome === 'ko').length, p95Ms: percentile(rs.filter((r) => r.outcome === 'ok').map((r) => r.ms), 0.95) });
  }
  return out;
}

/**
 * Recovered: p95 of successful requests back within +tolerance of the pre-fault p95 and no KO, in
 * every bucket (by request start) with requests from some bucket on until the end of the series.
 * Empty buckets are no evidence either way; a series whose last bucket is not recovered is not.
 */
export function recovery(requests: RequestSample[], before: Span, injectedAtMs: number, undoneAtMs: number, endMs: number, bucketMs: number, tolerance = 0.1): Recovery {
  const baselineP95Ms = percentile(requests.filter((r) => r.outcome === 'ok' && inSpan(r.t, before)).map((r) => r.ms), 0.95);
  const thresholdMs = baselineP95Ms === null ? null : baselineP95Ms * (1 + tolerance);
  const bs = buckets(requests, injectedAtMs, endMs, bucketMs).filter((b) => b.requests > 0);
  const good = (b: Bucket) => thresholdMs !== null && b.ko === 0 && b.p95Ms !== null && b.p95Ms <= thresholdMs;
  let first: Bucket | null = null;
  for (let i = bs.length - 1; i >= 0 && good(bs[i]); i--) first = bs[i];
  const last = bs[bs.length - 1];
  return {
    baselineP95Ms,
    thresholdMs,
    recovered: first !== null,
    sinceInjectMs: first ? first.fromMs - injectedAtMs : null,
    sinceUndoMs: first ? Math.max(0, first.fromMs - undoneAtMs) : null,
    lastP95Ms: last?.p95Ms ?? null,
    lastKO: last?.ko ?? 0,
    bucketMs,
  };
}
