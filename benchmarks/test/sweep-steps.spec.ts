import { analyseSweep, latencySlope, sweepMarkdown, sweepSteps, type SweepScheduleStep } from '../src/sweep/steps';

const schedule: SweepScheduleStep[] = [1, 2, 4].map((vus, index) => ({ index, vus, fromS: index * 20, holdFromS: index * 20 + 5, toS: index * 20 + 15 }));

/** k6 summary metrics of a step: `requests` in a 10 s hold window at `meanMs`. */
function metricsFor(steps: { requests: number; meanMs: number; failed?: number }[]) {
  const out: Record<string, { values: Record<string, number> }> = {};
  steps.forEach((s, i) => {
    out[`http_reqs{step:${i},phase:hold}`] = { values: { count: s.requests, rate: 0 } };
    out[`http_req_duration{step:${i},phase:hold}`] = { values: { avg: s.meanMs, 'p(95)': s.meanMs * 2, count: s.requests } };
    out[`http_req_failed{step:${i},phase:hold}`] = { values: { rate: s.failed ?? 0 } };
  });
  return out;
}

describe('sweep steps (paper 001)', () => {
  it('computes X, R, the error rate and Little’s N per step from the hold-window submetrics', () => {
    // 1 thread: 1000 requests in 10 s at 10 ms → X = 100/s, N = 100 × 0.010 = 1.
    const rows = sweepSteps(schedule, 10, metricsFor([{ requests: 1000, meanMs: 10 }, { requests: 1000, meanMs: 20, failed: 0.01 }, { requests: 500, meanMs: 40 }]));
    expect(rows.map((r) => [r.vus, r.throughput, r.littleN, r.valid])).toEqual([
      [1, 100, 1, true],
      [2, 100, 2, true],
      [4, 50, 2, false], // 4 threads but only 2 busy on average: the client lost half its time
    ]);
    expect(rows[1]!.errorRate).toBe(0.01);
    expect(rows[1]!.p95Ms).toBe(40);
  });

  it('fits the latency slope (ms per thread) on the valid steps only', () => {
    const rows = sweepSteps(schedule, 10, metricsFor([{ requests: 1000, meanMs: 10 }, { requests: 1000, meanMs: 20 }, { requests: 1000, meanMs: 40 }]));
    const fit = latencySlope(rows)!;
    expect(fit.msPerThread).toBeCloseTo(10);
    expect(fit.interceptMs).toBeCloseTo(0);
    expect(fit.r2).toBeCloseTo(1);
    expect(fit.steps).toBe(3);
  });

  it('has no slope with fewer than two valid steps, and says which steps are invalid and why', () => {
    const a = analyseSweep(schedule, 10, metricsFor([{ requests: 1000, meanMs: 10 }, { requests: 0, meanMs: 0 }, { requests: 100, meanMs: 40 }]));
    expect(a.fit).toBeNull();
    expect(a.valid).toBe(false);
    expect(a.meanThroughput).toBe(100);
    expect(a.reasons).toEqual([
      'step 1 (2 threads): no request answered in the hold window',
      "step 2 (4 threads): Little's law N = X·R = 0.40 for 4 threads (ratio 0.10, allowed 1 ± 0.2)",
    ]);
    expect(sweepMarkdown('S1 on naked-mon', a)).toContain('Latency slope: fewer than two valid steps.');
  });

  it('reports the mean and max throughput over valid steps (the paper’s Table 4)', () => {
    const a = analyseSweep(schedule, 10, metricsFor([{ requests: 1000, meanMs: 10 }, { requests: 1600, meanMs: 12.5 }, { requests: 1600, meanMs: 25 }]));
    expect(a.valid).toBe(true);
    expect(a.meanThroughput).toBeCloseTo((100 + 160 + 160) / 3);
    expect(a.maxThroughput).toBe(160);
    expect(sweepMarkdown('S2', a)).toMatch(/Latency slope \d+\.\d\d ms\/thread/);
  });
});
