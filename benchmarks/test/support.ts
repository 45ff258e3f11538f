// Test data builders: an Aggregated record from per-run paper metrics (as the runner does).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aggregateRuns } from '../src/aggregate';
import type { Aggregated, PaperMetrics } from '../src/types';

export function smokePaper(): PaperMetrics {
  return (JSON.parse(readFileSync(join(__dirname, 'fixtures', 'k6-summary-smoke.json'), 'utf8')) as { paper: PaperMetrics }).paper;
}

export function aggregatedFixture(
  variant: string,
  topology: 'monolith' | 'msa',
  replicas: Record<string, number>,
  runs: Partial<PaperMetrics>[],
  opts: { valid?: boolean; energy?: 'rapl' | 'absent' } = {},
): Aggregated {
  const base = smokePaper();
  const papers = runs.map((r) => ({ ...base, perType: undefined, ...r }));
  return {
    schema: 'shellgrade.bench-aggregated/1',
    meta: {
      runId: `20261122T000000Z-${variant}-small`,
      variant,
      profileName: 'small',
      profile: { peak: 6, rampS: 30, holdS: 60, runs: runs.length, betweenRunsS: 15, pauseS: 5, students: 200, thresholds: false },
      topology,
      replicas,
      tracing: false,
      entry: 'http://127.0.0.1:3000',
      startedAt: '2026-11-22T00:00:00.000Z',
      machine: { cpuModel: 'AMD EPYC', cores: 2, memBytes: 24 * 2 ** 30, kernel: '6.1', os: 'Linux', node: 'v20.20.0', k6: 'k6 v1.8.1', energy: opts.energy ?? 'absent' },
      apdexTMs: 800,
    },
    runs: runs.length,
    validRuns: opts.valid === false ? runs.length - 1 : runs.length,
    valid: opts.valid !== false,
    invalidReasons: opts.valid === false ? ['run 1: k6 dropped 3 iterations'] : [],
    paper: aggregateRuns(papers),
    resources: aggregateRuns(runs.map(() => ({ variantCpuS: 40, variantMemShare: 0.01, variantRssMeanBytes: 300 * 2 ** 20, variantRssMaxBytes: 350 * 2 ** 20, k6CpuMaxPct: 20, cpuSPerOk: 0.02, machineCpuSPerOk: 0.05, machineCpuSButK6: 100, energyWh: null }))),
  };
}
