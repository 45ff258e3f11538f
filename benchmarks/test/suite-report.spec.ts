// Report pieces of the suites (paper 002): the suite tables and charts, and paper 002's http-vs-grpc table.
import { reportHtml, suiteSeries } from '../src/report/html';
import { tableMarkdown } from '../src/report/markdown';
import { stepTable, suiteTables } from '../src/report/suite-tables';
import { hopMs, ratio, transportPairs, transportTables, wiringKey, type TransportCandidate } from '../src/report/transport-table';
import type { SuiteRun } from '../src/suites/analyse';
import type { Aggregated } from '../src/types';
import { aggregatedFixture } from './support';

const spec = (name: string, transport: string, replicas = { gateway: 1, leftover: 1, exercise: 2 }): Record<string, unknown> => ({
  name, description: `${name} wiring`, paper: { source: name }, topology: 'msa', transport, replicas, grader: { exec: 'blocking' },
});
const candidate = (a: Aggregated, s: Record<string, unknown> | null, breakdown: unknown = null): TransportCandidate => ({ aggregated: a, spec: s, breakdown });
const msa = (variant: string, p50: number, cpu: number): Aggregated => {
  const a = aggregatedFixture(variant, 'msa', { gateway: 1, leftover: 1, exercise: 2 }, [{ p50, p95: 2 * p50, avg: p50 + 5, throughput: 10 }, { p50, p95: 2 * p50, avg: p50 + 5, throughput: 10 }]);
  return { ...a, resources: { ...a.resources, cpuSPerOk: { n: 2, mean: cpu, sd: 0, ci95: 0, min: cpu, max: cpu } } };
};

describe('transport http vs grpc', () => {
  const http = candidate(msa('msa-1-2', 100, 0.02), spec('msa-1-2', 'http'), { variants: [{ medianBand: { gateway: 10, 'exercise.queueing': 4 } }] });
  const grpc = candidate(msa('msa-grpc-1-2', 80, 0.03), spec('msa-grpc-1-2', 'grpc'), { variants: [{ medianBand: { gateway: 5 } }] });
  const other = candidate(msa('msa-grpc-2-4-4', 70, 0.01), spec('msa-grpc-2-4-4', 'grpc', { gateway: 2, leftover: 4, exercise: 4 }));

  it('pairs runs whose specs differ only by transport (name, description, paper aside)', () => {
    expect(wiringKey(spec('a', 'http'))).toBe(wiringKey(spec('b', 'grpc')));
    expect(wiringKey(spec('a', 'http'))).not.toBe(wiringKey(other.spec!));
    expect(transportPairs([other, grpc, http]).map(([h, g]) => [h.aggregated.meta.variant, g.aggregated.meta.variant])).toEqual([['msa-1-2', 'msa-grpc-1-2']]);
  });

  it('needs the same profile, and a spec for both', () => {
    const otherProfile = candidate({ ...grpc.aggregated, meta: { ...grpc.aggregated.meta, profileName: 'smoke' } }, grpc.spec);
    expect(transportPairs([http, otherProfile])).toEqual([]);
    expect(transportPairs([http, candidate(grpc.aggregated, null)])).toEqual([]);
  });

  it('one table: http, grpc, grpc / http for latency, throughput, errors, CPU per request and per hop', () => {
    const [t] = transportTables([http, grpc]);
    expect(t.columns).toEqual(['http: msa-1-2', 'grpc: msa-grpc-1-2', 'grpc / http']);
    const row = (label: string): string[] => t.rows.find((r) => r.label === label)!.cells;
    expect(row('End-to-end p50 (OK requests, ms)')).toEqual(['100 ms ±0', '80 ms ±0', '0.80×']);
    expect(row('End-to-end p95 (ms)')[2]).toBe('0.80×');
    expect(row('End-to-end average (ms)')).toEqual(['105 ms ±0', '85 ms ±0', '0.81×']);
    expect(row('Throughput (OK/s)')[2]).toBe('1.00×');
    expect(row('CPU per OK request, variant processes (ms)')).toEqual(['20.00 ±0.00', '30.00 ±0.00', '1.50×']);
    expect(row('Error rate: efr_paper')).toHaveLength(3);
    expect(row('Per hop (traces, median band): gateway')).toEqual(['10.0 ms', '5.0 ms', '0.50×']);
    expect(row('Per hop (traces, median band): exercise.queueing')).toEqual(['4.0 ms', 'n/a', 'n/a']);
  });

  it('ratio and hops tolerate what is missing', () => {
    expect(ratio(0, 5)).toBe('n/a');
    expect(ratio(undefined, 5)).toBe('n/a');
    expect(ratio(4, 5)).toBe('1.25×');
    expect(hopMs(null)).toEqual({});
    expect(hopMs({ variants: [] })).toEqual({});
  });
});

const stressRun: SuiteRun = {
  schema: 'shellgrade.suite-run/1', run: 1, kind: 'stress', windowS: 5, loadFromMs: 0,
  schedule: [{ index: 0, rate: 2, fromS: 0, holdFromS: 0, toS: 10 }, { index: 1, rate: 4, fromS: 10, holdFromS: 12, toS: 22 }],
  totals: { iterations: 6, requests: 60, ok: 50, ko: 10 }, k6: { OK: 50, KO: 10, iterations: 6 },
  steps: [
    { index: 0, rate: 2, fromS: 0, toS: 10, iterations: 2, N: 20, requests: 20, ok: 20, ko: 0, koShare: 0, okShare: 1, okPerS: 2, p50: 100, p95: 200, koCauses: {} },
    { index: 1, rate: 4, fromS: 10, toS: 22, iterations: 4, N: 40, requests: 40, ok: 30, ko: 10, koShare: 0.25, okShare: 0.75, okPerS: 2.5, p50: 900, p95: 12000, koCauses: { timeout: 7, gateway_5xx: 3 } },
  ],
  timeline: [
    { fromS: 0, toS: 5, requests: 10, ok: 10, ko: 0, koShare: 0, p50: 100, p95: 150, koCauses: {}, okPerS: 2 },
    { fromS: 5, toS: 10, requests: 0, ok: 0, ko: 0, koShare: null, p50: null, p95: null, koCauses: {}, okPerS: 0 },
  ],
  memory: { t: [0, 5], groups: [{ name: 'sg-monolith-0', bytes: [2 ** 20 * 100, null] }] },
  stress: { thresholds: { sloKoShare: 0.01, sloP95Ms: 10000, brokenOkShare: 0.1 }, knee: { index: 0, rate: 2 }, breakingPoint: null, steps: [{ index: 0, meetsSlo: true, broken: false }, { index: 1, meetsSlo: false, broken: false }] },
};

describe('suite tables and charts', () => {
  it('per step: counts, shares, percentiles, KO causes largest first, the stress mark; totals vs k6 in the notes', () => {
    const t = stepTable({ label: 'naked-mon [stress]', suiteRun: stressRun });
    expect(t.rows.map((r) => r.label)).toEqual(['step 1: 2 it/s', 'step 2: 4 it/s']);
    // This run was analysed before the SPS share existed: n/a, never a made-up figure.
    expect(t.rows[1].cells).toEqual(['10–22', '4', '40', '30', '10', '25.00%', '75.00%', 'n/a', '2.50', '900 ms', '12000 ms', 'timeout 7, gateway_5xx 3', 'misses SLO']);
    const graded = stepTable({ label: 'x', suiteRun: { ...stressRun, steps: stressRun.steps.map((s) => ({ ...s, spsOk: 1, spsOkShare: 0.25 })) } });
    expect(graded.rows[1].cells[7]).toBe('25.00%');
    expect(t.notes[1]).toBe("Totals from the request lines: 50 OK, 10 KO, 6 iterations; k6's counters: 50 OK, 10 KO, 6 iterations.");
  });

  it('the verdicts table names the knee and breaking point; soak and spike get their own wording', () => {
    const soakRun: SuiteRun = {
      ...stressRun, run: 2, kind: 'soak', stress: undefined,
      soak: { firstWindowS: [5, 9], lastWindowS: [21, 25], memory: [{ group: 'sg-monolith-0', firstBytes: 100, lastBytes: 120, growth: 0.2, pass: false }], p95: { firstMs: 100, lastMs: 105, drift: 0.05, pass: true }, ko: { count: 0, pass: true }, thresholds: { maxMemoryGrowth: 0.1, maxP95Drift: 0.1 }, pass: false, failures: ['sg-monolith-0: PSS +20.0% > 10.0%'] },
    };
    const spikeRun: SuiteRun = {
      ...stressRun, run: 3, kind: 'spike', stress: undefined,
      spike: { baselineRate: 1, burstRate: 5, preP95Ms: 100, boundMs: 110, burstFromS: 5, burstEndS: 8, tolerance: 0.1, recoveryS: null, recovered: false, windows: [] },
    };
    const tables = suiteTables([{ label: 'v', suiteRun: stressRun }, { label: 'v', suiteRun: soakRun }, { label: 'v', suiteRun: spikeRun }]);
    const verdicts = tables[0];
    expect(verdicts.rows.map((r) => r.cells.slice(0, 2))).toEqual([['stress', 'knee 2 it/s'], ['soak', 'FAIL'], ['spike', 'never recovered']]);
    expect(verdicts.rows[0].cells[2]).toBe('knee step 1 (2 it/s); breaking point not reached (the highest step still served)');
    const withGrading = suiteTables([{ label: 'v', suiteRun: { ...stressRun, stress: { ...stressRun.stress!, gradingBreakingPoint: { index: 1, rate: 4 } } } }])[0];
    expect(withGrading.rows[0].cells[2]).toBe('knee step 1 (2 it/s); breaking point not reached (the highest step still served); grading breaking point step 2 (4 it/s)');
    expect(verdicts.rows[2].cells[2]).toBe('1 → 5 it/s; pre-spike p95 100 ms, bound 110 ms (+10%): never recovered before the end of the load');
    const memory = tables.find((t) => t.title.startsWith('Soak'))!;
    expect(memory.rows[0].cells).toEqual(['0.0 MiB', '0.0 MiB', '20.00%', 'FAIL']);
    expect(tableMarkdown(verdicts)).toContain('| v run 1 | stress | knee 2 it/s |');
  });

  it('charts: p95 and OK/s per window, PSS in MiB per variant process', () => {
    const s = suiteSeries('v', stressRun);
    expect(s).toEqual({ label: 'v', t: [0, 5], p95: [150, null], okPerS: [2, 0], memory: [{ name: 'sg-monolith-0', mib: [100, null] }] });
    const html = reportHtml({ title: 't', intro: [], tables: [], buckets: [], cpu: [], suites: [s], breakdowns: [] });
    expect(html).toContain('<canvas id="suite-lat-0"');
    expect(html).toContain('<canvas id="suite-mem-0"');
  });
});
