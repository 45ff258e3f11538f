import { normalizeTrace, type JaegerTrace } from '@shellgrade/trace-model';
import { compareOverhead, formatOverhead } from '../src/overhead';
import type { RunAggregate } from '../src/run-files';

describe('Jaeger JSON normalization', () => {
  const raw: JaegerTrace = {
    traceID: 'abc',
    processes: { p1: { serviceName: 'shellgrade-gateway', tags: [{ key: 'variant', type: 'string', value: 'msa-1-2' }] } },
    spans: [
      { traceID: 'abc', spanID: 's1', operationName: 'POST', startTime: 1_000, duration: 500, processID: 'p1', references: [{ refType: 'CHILD_OF', traceID: 'abc', spanID: 'k6' }], tags: [{ key: 'span.kind', value: 'server' }, { key: 'http.status_code', type: 'int64', value: 201 }] },
      { traceID: 'abc', spanID: 's2', operationName: 'pg.query', startTime: 1_100, duration: 100, processID: 'p1', references: [{ refType: 'CHILD_OF', traceID: 'abc', spanID: 's1' }], tags: [{ key: 'span.kind', value: 'client' }, { key: 'weird', value: { nested: 1 } }] },
    ],
  };

  it('maps kind, parent, times, tags and process resource', () => {
    const t = normalizeTrace(raw);
    expect(t.spans[0]).toMatchObject({ spanId: 's1', parentId: 'k6', kind: 'server', startUs: 1_000, endUs: 1_500, service: 'shellgrade-gateway', resource: { variant: 'msa-1-2' } });
    expect(t.spans[0].tags['http.status_code']).toBe(201);
    expect(t.spans[1]).toMatchObject({ parentId: 's1', kind: 'client' });
    expect(t.spans[1].tags.weird).toBeUndefined();
  });
});

describe('tracing overhead', () => {
  const agg = (tracing: boolean, throughput: number, p95: number): RunAggregate => ({
    meta: { variant: 'naked-mon', tracing },
    paper: { 'sps.throughput': { mean: throughput }, 'sps.p95': { mean: p95 }, throughput: { mean: throughput * 5 }, p95: null },
  });

  it('gives throughput and p95 ratios on/off', () => {
    const r = compareOverhead('on1', 'off1', agg(true, 9.5, 440), agg(false, 10, 400));
    const by = Object.fromEntries(r.metrics.map((m) => [m.metric, m.ratio]));
    expect(by['sps.throughput']).toBeCloseTo(0.95, 6);
    expect(by['sps.p95']).toBeCloseTo(1.1, 6);
    expect(by.p95).toBeNull();
    expect(r.throughputOverhead).toBeCloseTo(0.05, 6);
    expect(formatOverhead(r)).toContain('throughput lost to tracing: 5.0%');
  });

  it('refuses swapped runs', () => {
    expect(() => compareOverhead('a', 'b', agg(false, 1, 1), agg(false, 1, 1))).toThrow(/not traced/);
  });
});
