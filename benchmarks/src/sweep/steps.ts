/**
 * Per-step figures of a closed-model sweep (paper 001) from k6's summary (benchmarks/sweep.js),
 * and the paper's two numbers: the latency slope in ms per thread (least-squares line of mean
 * latency over threads, Table 3) and the mean throughput over the steps (Table 4).
 *
 * Validity per step, Little's law: in a closed model without think time every thread is always
 * waiting for one answer, so the measured N = X · R (X throughput, R mean latency) must be close
 * to the threads running. Far below, the threads spent time elsewhere (the load generator was
 * short of CPU, or the window was cut): the step's figures do not describe the system.
 */
import { linearRegression, rSquared } from 'simple-statistics';

export interface SweepScheduleStep {
  index: number;
  vus: number;
  fromS: number;
  holdFromS: number;
  toS: number;
}

export interface SweepStepRow {
  step: number;
  vus: number;
  /** Requests answered in the step's hold window. */
  requests: number;
  holdS: number;
  /** X: requests per second over the hold window. */
  throughput: number;
  meanMs: number;
  p95Ms: number;
  /** Share of the hold window's requests that were not 200/201 (or failed outright). */
  errorRate: number;
  /** N = X · R, the threads Little's law sees busy. */
  littleN: number;
  /** littleN / vus: 1 when every thread was always waiting for the system. */
  littleRatio: number;
  /** littleRatio within the tolerance (and at least one request). */
  valid: boolean;
}

export interface SweepFit {
  /** Latency slope, ms per added thread (the paper's "linear coefficient"). */
  msPerThread: number;
  interceptMs: number;
  r2: number;
  /** Steps the line was fitted on (the valid ones). */
  steps: number;
}

export interface SweepAnalysis {
  rows: SweepStepRow[];
  /** null with fewer than two valid steps. */
  fit: SweepFit | null;
  /** Mean of the valid steps' throughputs (Table 4 of the paper), req/s. */
  meanThroughput: number | null;
  maxThroughput: number | null;
  /** Every step valid. */
  valid: boolean;
  reasons: string[];
}

/** |N/threads − 1| allowed. Below: the client lost time between requests; above: the window or the counts are off. */
export const LITTLE_TOLERANCE = 0.2;

interface K6Metric {
  values: Record<string, number>;
}

/** The hold-window submetrics of step `i` (sweepThresholds in k6/lib/sweep.js names them). */
const tag = (i: number) => `{step:${i},phase:hold}`;

export function sweepSteps(schedule: SweepScheduleStep[], holdS: number, metrics: Record<string, K6Metric | undefined>, tolerance = LITTLE_TOLERANCE): SweepStepRow[] {
  return schedule.map((s) => {
    const duration = metrics[`http_req_duration${tag(s.index)}`]?.values ?? {};
    const reqs = metrics[`http_reqs${tag(s.index)}`]?.values ?? {};
    const failed = metrics[`http_req_failed${tag(s.index)}`]?.values ?? {};
    const requests = reqs.count ?? 0;
    const throughput = holdS > 0 ? requests / holdS : 0;
    const meanMs = duration.avg ?? 0;
    const littleN = (throughput * meanMs) / 1000;
    const littleRatio = s.vus > 0 ? littleN / s.vus : 0;
    return {
      step: s.index,
      vus: s.vus,
      requests,
      holdS,
      throughput,
      meanMs,
      p95Ms: duration['p(95)'] ?? 0,
      errorRate: failed.rate ?? 0,
      littleN,
      littleRatio,
      valid: requests > 0 && Math.abs(littleRatio - 1) <= tolerance,
    };
  });
}

/** Least-squares line of mean latency over threads, on the valid steps. */
export function latencySlope(rows: SweepStepRow[]): SweepFit | null {
  const points = rows.filter((r) => r.valid).map((r) => [r.vus, r.meanMs] as [number, number]);
  if (points.length < 2 || new Set(points.map(([x]) => x)).size < 2) return null;
  const { m, b } = linearRegression(points);
  const line = (x: number) => m * x + b;
  return { msPerThread: m, interceptMs: b, r2: rSquared(points, line), steps: points.length };
}

export function analyseSweep(schedule: SweepScheduleStep[], holdS: number, metrics: Record<string, K6Metric | undefined>, tolerance = LITTLE_TOLERANCE): SweepAnalysis {
  const rows = sweepSteps(schedule, holdS, metrics, tolerance);
  const valid = rows.filter((r) => r.valid);
  const reasons = rows
    .filter((r) => !r.valid)
    .map((r) =>
      r.requests === 0
        ? `step ${r.step} (${r.vus} threads): no request answered in the hold window`
        : `step ${r.step} (${r.vus} threads): Little's law N = X·R = ${r.littleN.toFixed(2)} for ${r.vus} threads (ratio ${r.littleRatio.toFixed(2)}, allowed 1 ± ${tolerance})`,
    );
  return {
    rows,
    fit: latencySlope(rows),
    meanThroughput: valid.length ? valid.reduce((a, r) => a + r.throughput, 0) / valid.length : null,
    maxThroughput: valid.length ? Math.max(...valid.map((r) => r.throughput)) : null,
    valid: reasons.length === 0,
    reasons,
  };
}

const f = (x: number, d = 1) => x.toFixed(d);

/** One Markdown table per sweep: the steps, then the slope and throughput lines. */
export function sweepMarkdown(title: string, a: SweepAnalysis): string {
  const lines = [
    `### ${title}${a.valid ? '' : ' (INVALID steps marked ✗)'}`,
    '',
    '| threads | requests | X (req/s) | mean (ms) | p95 (ms) | errors | N = X·R | N/threads | valid |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|:-:|',
    ...a.rows.map((r) => `| ${r.vus} | ${r.requests} | ${f(r.throughput)} | ${f(r.meanMs)} | ${f(r.p95Ms)} | ${f(100 * r.errorRate, 2)} % | ${f(r.littleN, 2)} | ${f(r.littleRatio, 2)} | ${r.valid ? '✓' : '✗'} |`),
    '',
    a.fit
      ? `Latency slope ${f(a.fit.msPerThread, 2)} ms/thread (intercept ${f(a.fit.interceptMs)} ms, R² ${f(a.fit.r2, 3)}, ${a.fit.steps} steps); mean throughput ${f(a.meanThroughput ?? 0)} req/s, max ${f(a.maxThroughput ?? 0)} req/s.`
      : 'Latency slope: fewer than two valid steps.',
    ...a.reasons.map((r) => `- ${r}`),
  ];
  return lines.join('\n');
}
