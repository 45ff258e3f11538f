import { aggregateByVariant } from '../src/attribution/aggregate';
import { breakdownRequest, type RequestBreakdown } from '../src/attribution/request';
import { runLatencyShares, sharesAt } from '../src/attribution/shares';
import { buildBreakdownFile } from '../src/report/breakdown-file';
import { renderMarkdown } from '../src/report/markdown';
import { span, spsRoot, trace } from './fixtures/span-trees';

// A fast request with overlapping siblings: storage 10..60 and a query 40..90 under a 100 ms
// root -> database 50 (last finisher), storage 30 (before the query started), exercise 20.
function overlapping(): RequestBreakdown {
  return breakdownRequest(
    trace(
      spsRoot(0, 100),
      span({ id: 's', parent: 'root', name: 'storage.get', start: 10, end: 60 }),
      span({ id: 'q', parent: 'root', name: 'pg.query:SELECT', kind: 'client', start: 40, end: 90, tags: { 'db.system': 'postgresql' } }),
    ),
    null,
  )!;
}

// A slow request through the broker: publish 10..20, queue wait 20..500, consume 500..1990 with
// grading 600..1900 inside it, under a 2000 ms root -> grading 1300, queue wait 480, consume
// 190, exercise 20, publish 10.
function brokerHop(): RequestBreakdown {
  return breakdownRequest(
    trace(
      spsRoot(0, 2000),
      span({ id: 'pub', parent: 'root', name: 'broker.publish', kind: 'producer', start: 10, end: 20 }),
      span({ id: 'con', parent: 'pub', name: 'broker.consume', kind: 'consumer', service: 'shellgrade-exercise', start: 500, end: 1990 }),
      span({ id: 'gp', parent: 'con', name: 'grading.process', service: 'shellgrade-exercise', start: 600, end: 1900 }),
    ),
    null,
  )!;
}

// 90 fast and 10 slow requests: the median is a fast one, the p99 a slow one.
const run = [...Array.from({ length: 90 }, overlapping), ...Array.from({ length: 10 }, brokerHop)].map((r, i) => ({ ...r, traceId: `trace-${i}` }));

describe('latency shares over a run (critical paths of many synthetic traces)', () => {
  const { p50, p99 } = runLatencyShares(run);

  it('p50: the overlapping siblings counted once — database 50%, storage 30%, exercise 20%', () => {
    expect(p50.latencyMs).toBe(100);
    expect(p50.shares).toEqual([
      ['database', 0.5],
      ['storage', 0.3],
      ['exercise', 0.2],
    ]);
  });

  it('p99: the broker hop split into publish, queue wait and consume, around the grading', () => {
    expect(p99.latencyMs).toBe(2000);
    expect(p99.requests).toBe(10);
    const shares = Object.fromEntries(p99.shares);
    expect(shares).toEqual({ 'grading.process': 0.65, 'broker.queue_wait': 0.24, 'broker.consume': 0.095, exercise: 0.01, 'broker.publish': 0.005 });
    expect(p99.shares[0][0]).toBe('grading.process');
    expect(p99.exemplarTraceId).toMatch(/^trace-(9\d)$/);
    expect(p50.exemplarTraceId).toMatch(/^trace-([0-8]?\d)$/);
  });

  it('leaves out components with no time in the band (a client sample equal to the server span: no queueing)', () => {
    const matched = { ...overlapping(), clientMs: 100, components: { ...overlapping().components, 'client/queueing': 0 } };
    expect(sharesAt([matched], 0.5, 0.05).shares.map(([c]) => c)).toEqual(['database', 'storage', 'exercise']);
  });

  it('shares sum to 1 at every quantile', () => {
    for (const q of [0.1, 0.5, 0.9, 0.95, 0.99]) expect(sharesAt(run, q, 0.05).shares.reduce((s, [, v]) => s + v, 0)).toBeCloseTo(1, 10);
  });

  it('is part of each variant of breakdown.json (what bench findings reads)', () => {
    const [v] = aggregateByVariant(run);
    expect(v.shares).toEqual({ p50, p99 });
  });

  it('is shown in breakdown.md', () => {
    const file = buildBreakdownFile({ runId: 'r', window: { from: 'a', to: 'b' }, jaeger: 'j', services: [], traces: { found: 100, sps: 100, matchedClientSamples: 0, clientSamples: 0 }, collector: null, variants: aggregateByVariant(run), requests: run });
    expect(renderMarkdown(file)).toContain("Shares of the run's p50 (100.0 ms) and p99 (2000.0 ms): database 50.0%, storage 30.0%, exercise 20.0% · grading.process 65.0%, broker.queue_wait 24.0%, broker.consume 9.5%, exercise 1.0%.");
  });

  it('with a minimum band, takes the requests nearest the quantile in rank (a short run\'s p95 is not one request)', () => {
    const few = run.slice(85, 97).map((r, i) => ({ ...r, totalMs: r.totalMs + i })); // 5 fast, 7 slow, totals distinct
    expect(sharesAt(few, 0.95, 0.025).requests).toBe(1);
    const banded = sharesAt(few, 0.95, 0.025, 5);
    expect(banded.requests).toBe(5);
    expect(banded.shares[0][0]).toBe('grading.process');
    expect(sharesAt(few, 0.5, 0.025, 5).requests).toBe(6); // centred on rank 5.5 of 0..11
    expect(sharesAt(few.slice(0, 3), 0.95, 0.025, 5).requests).toBe(3);
  });

  it('refuses an empty run', () => {
    expect(() => sharesAt([], 0.5, 0.05)).toThrow(/no requests/);
  });
});
