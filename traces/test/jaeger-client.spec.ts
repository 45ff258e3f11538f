import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JaegerClient } from '../src/jaeger/client';
import type { JaegerTrace } from '@shellgrade/trace-model';

/** A stand-in for Jaeger's search endpoint over a fixed set of one-span traces (unit test double). */
function fakeJaeger(traces: { id: string; startMs: number; spans?: number }[]) {
  const queries: { start: number; end: number }[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/services') return res.end(JSON.stringify({ data: ['shellgrade-monolith'] }));
    if (url.pathname.startsWith('/api/traces/')) {
      res.statusCode = 404;
      return res.end(JSON.stringify({ data: null, errors: [{ code: 404, msg: 'trace not found' }] }));
    }
    const start = Number(url.searchParams.get('start'));
    const end = Number(url.searchParams.get('end'));
    const limit = Number(url.searchParams.get('limit'));
    queries.push({ start, end });
    const data: JaegerTrace[] = traces
      .filter((t) => t.startMs * 1000 >= start && t.startMs * 1000 <= end)
      .slice(0, limit)
      .map((t) => ({
        traceID: t.id,
        processes: { p1: { serviceName: 'shellgrade-monolith' } },
        spans: Array.from({ length: t.spans ?? 1 }, (_, i) => ({ traceID: t.id, spanID: `${t.id}-${i}`, operationName: 'op', startTime: t.startMs * 1000, duration: 10, processID: 'p1' })),
      }));
    res.end(JSON.stringify({ data }));
  });
  return { server, queries };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('JaegerClient', () => {
  it('splits a slice whose answer hit the limit, so no trace is lost', async () => {
    const traces = Array.from({ length: 25 }, (_, i) => ({ id: `t${i}`, startMs: 1_000 + i * 10 }));
    const { server, queries } = fakeJaeger(traces);
    try {
      const client = new JaegerClient(await listen(server));
      const found = await client.search({ service: 'shellgrade-monolith', fromMs: 1_000, toMs: 1_250, limit: 10, sliceMs: 1_000 });
      expect(found.map((t) => t.traceId).sort()).toEqual(traces.map((t) => t.id).sort());
      expect(queries.length).toBeGreaterThan(1);
    } finally {
      server.close();
    }
  });

  it('deduplicates traces seen in two slices, keeping the most complete copy', async () => {
    const { server } = fakeJaeger([{ id: 'a', startMs: 1_000, spans: 1 }, { id: 'a', startMs: 1_000, spans: 3 }]);
    try {
      const client = new JaegerClient(await listen(server));
      const found = await client.search({ service: 'shellgrade-monolith', fromMs: 900, toMs: 1_100, limit: 100, sliceMs: 100 });
      expect(found).toHaveLength(1);
      expect(found[0].spans).toHaveLength(3);
      expect(await client.services()).toEqual(['shellgrade-monolith']);
      expect(await client.trace('missing')).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
