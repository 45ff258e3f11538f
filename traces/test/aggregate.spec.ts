import { aggregateByVariant } from '../src/attribution/aggregate';
import { COMPONENTS } from '../src/attribution/components';
import type { RequestBreakdown } from '../src/attribution/request';
import { chartConfig, renderChartHtml } from '../src/report/chart';
import { buildBreakdownFile } from '../src/report/breakdown-file';
import { renderMarkdown } from '../src/report/markdown';

function request(variant: string, i: number, components: RequestBreakdown['components']): RequestBreakdown {
  const totalMs = Object.values(components).reduce<number>((s, v) => s + (v ?? 0), 0);
  return { traceId: `t${variant}${i}`, variant, rootService: 'shellgrade-monolith', startUs: i, serverMs: totalMs, clientMs: i % 2 ? totalMs : null, totalMs, status: 201, components };
}

// 100 requests: exercise 10 ms + grading i ms (1..100); every tenth has 5 ms unexplained.
const requests = Array.from({ length: 100 }, (_, k) =>
  request('mon', k, { exercise: 10, 'grading.process': k + 1, ...(k % 10 === 0 ? { unexplained: 5 } : {}) }),
);

describe('aggregation per variant', () => {
  const [mon] = aggregateByVariant(requests);

  it('gives median and p95 per component and for the total', () => {
    expect(mon.requests).toBe(100);
    expect(mon.matchedClientSamples).toBe(50);
    expect(mon.components.exercise.median).toBe(10);
    expect(mon.components['grading.process'].median).toBeCloseTo(50.5, 1);
    expect(mon.components['grading.process'].p95).toBeGreaterThanOrEqual(95);
    expect(mon.components.database.p95).toBe(0);
    expect(mon.totalMs.median).toBeGreaterThan(60);
  });

  it('computes the explained share from the unexplained component', () => {
    const total = requests.reduce((s, r) => s + r.totalMs, 0);
    expect(mon.explainedShare).toBeCloseTo(1 - 50 / total, 6);
    expect(mon.explainedShareMedian).toBeGreaterThan(0.9);
    expect(mon.explainedShareMedian).toBeLessThanOrEqual(1);
  });

  it('computes coverage by named spans: the inferred client-side wait is not covered, not 100% by construction', () => {
    const [q] = aggregateByVariant([
      request('q', 0, { exercise: 60, 'exercise.queueing': 10, 'client/queueing': 30 }),
      request('q', 1, { exercise: 50, unexplained: 50 }),
    ]);
    expect(q.coverage).toBeCloseTo(120 / 200, 6);
    expect(mon.coverage).toBeCloseTo(mon.explainedShare, 6);
    expect(mon.coverage).toBeLessThan(1);
  });

  it('builds a median band whose stack adds up to about the median latency', () => {
    const stack = COMPONENTS.reduce((s, c) => s + mon.medianBand[c], 0);
    expect(Math.abs(stack - mon.totalMs.median) / mon.totalMs.median).toBeLessThan(0.05);
    const tail = COMPONENTS.reduce((s, c) => s + mon.tailBand[c], 0);
    expect(tail).toBeGreaterThan(stack);
  });

  it('keeps variants apart, sorted by name', () => {
    const both = aggregateByVariant([...requests, request('msa-1-2', 0, { gateway: 3, exercise: 7 })]);
    expect(both.map((v) => v.variant)).toEqual(['mon', 'msa-1-2']);
    expect(both[1].components.gateway.median).toBe(3);
  });

  it('renders markdown and a self-contained Chart.js page', () => {
    const file = buildBreakdownFile({
      runId: 'r1', window: { from: 'a', to: 'b' }, jaeger: 'http://127.0.0.1:16686', services: ['shellgrade-monolith'],
      traces: { found: 100, sps: 100, matchedClientSamples: 50, clientSamples: 50 }, variants: [mon], requests,
      collector: { url: 'u', acceptedSpans: 10, refusedSpans: 1, failedSpans: 1, storedSpans: 10, storeFailedSpans: 0 },
    });
    const md = renderMarkdown(file);
    expect(md).toContain('## mon');
    expect(md).toContain('10 spans accepted, 2 refused/failed');
    expect(md).toMatch(/\| grading\.process \|/);
    expect(md).toContain('Where latency lives (median band): grading.process');
    const config = chartConfig([mon]);
    expect(config.data.labels).toEqual(['mon median', 'mon p90–p99']);
    expect(config.data.datasets.map((d) => d.label)).toEqual(['exercise', 'grading.process', 'unexplained']);
    const html = renderChartHtml('t <x>', [mon]);
    expect(html).not.toMatch(/<script src=/);
    expect(html).toContain('t &#60;x&#62;');
    expect(html.length).toBeGreaterThan(100_000); // Chart.js inlined
  });
});
