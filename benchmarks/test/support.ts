// Test data builders: an Aggregated record from per-run paper metrics (as the runner does).
import { aggregateTest } from '../src/test-aggregate';
import type { Aggregated, PaperMetrics, RunRecord, TestMeta } from '../src/types';

/** A clean smoke-sized run: every request OK. */
export function smokePaper(): PaperMetrics {
  return {
    vus: 9, N: 90, OK: 90, KO: 0, notSent: 0, RAC: 1, FR: 0, efr_paper: 0, ko_rate: 0,
    koCauses: { gateway_5xx: 0, timeout: 0 },
    iterations: { started: 9, ok: 9, ko: 0, koCauses: { timeout: 0, cut_by_graceful_stop: 0 } },
    sps: { N: 9, OK: 9, KO: 0, accepted: 9, FR: 0, efr_paper: 0, ko_rate: 0, throughput: 1.5, throughputHold: 2, p50: 50, p95: 60, p99: 70 },
    buckets: { lt800: 1, b800_1200: 0, ge1200: 0 },
    apdex: 1, throughput: 15, p50: 10, p95: 20, p99: 30, durationS: 6, droppedIterations: 0, clientErrors: 0, vusMax: 40, checksRate: 1,
    perType: {},
  };
}

export function aggregatedFixture(
  variant: string,
  topology: 'monolith' | 'msa',
  replicas: Record<string, number>,
  runs: Partial<PaperMetrics>[],
  opts: { valid?: boolean; energy?: 'rapl' | 'absent'; runsAsked?: number } = {},
): Aggregated {
  const base = smokePaper();
  // The run's figures are its hold stage's too (tables read stages.hold).
  const papers = runs.map((r) => {
    const hold = { ...base, ...r };
    return { ...hold, stages: { hold, ramp: base } };
  });
  const records = papers.map(
    (paper, i) =>
      ({
        run: i + 1,
        valid: opts.valid === false ? i > 0 : true,
        reasons: opts.valid === false && i === 0 ? ['k6 dropped 3 iterations'] : [],
        paper,
        resources: {
          variantCpuS: 40, cpuSByGroup: { postgres: 10, 'sg-monolith-0': 30 }, variantMemShare: 0.01, variantPssMeanBytes: 300 * 2 ** 20, variantPssMaxBytes: 350 * 2 ** 20,
          variantRssMeanBytes: 500 * 2 ** 20, k6CpuMaxPct: 20, machineCpuSButClient: 100, cpuResidualShare: 0.6,
        },
        derived: { cpuSPerOk: 0.02, machineCpuSPerOk: 0.05, cpuSPerIteration: 0.2, machineCpuSPerIteration: 0.5, energyWh: null, energyEstimate: { meanW: 3.2, wh: 0.05 } },
        crashes: [],
        audit: { summary: 'balanced (accepted 9, persisted final 9)' },
        dashboard: `k6-dashboard-run-${i + 1}.html`,
      }) as unknown as RunRecord,
  );
  const meta: TestMeta = {
      runId: `20261122T000000Z-${variant}-small`,
      variant,
      profileName: 'small',
      profile: { peak: 6, rampS: 30, holdS: 60, runs: runs.length, betweenRunsS: 15, pauseS: 5, students: 200, thresholds: false, connectionReuse: false, arrivals: 'even' },
      topology,
      replicas,
      tracing: false,
      entry: 'http://127.0.0.1:3000',
      startedAt: '2026-11-22T00:00:00.000Z',
      machine: { cpuModel: 'AMD EPYC', cores: 2, memBytes: 24 * 2 ** 30, kernel: '6.1', os: 'Linux', node: 'v20.20.0', k6: 'k6 v1.8.1', energy: opts.energy ?? 'absent' },
      apdexTMs: 1500,
      baseline: null,
      powerModel: { idleWPerCpu: 0.74, maxWPerCpu: 3.5, source: 'test' },
      cpuAccounting: 'cgroup v1',
  };
  return aggregateTest(meta, records, opts.runsAsked ?? runs.length);
}
