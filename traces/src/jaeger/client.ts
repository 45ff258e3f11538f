/**
 * Jaeger query-API client (v2 all-in-one serves the v1 JSON API on 16686): lists
 * services, fetches one trace, and searches a time window in bounded slices — a slice
 * returning `limit` traces may have been cut, so it is split in two and re-queried.
 */
import { normalizeTrace, type JaegerTrace, type Trace } from '@shellgrade/trace-model';

export interface SearchOptions {
  service: string;
  fromMs: number;
  toMs: number;
  /** Traces per request; a full answer makes the slice split. */
  limit?: number;
  /** Initial slice length. */
  sliceMs?: number;
  operation?: string;
}

const MIN_SLICE_MS = 50;

export class JaegerClient {
  constructor(
    private readonly baseUrl = 'http://127.0.0.1:16686',
    private readonly timeoutMs = 30_000,
  ) {}

  private async get<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`Jaeger ${url.pathname} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  }

  async services(): Promise<string[]> {
    const body = await this.get<{ data: string[] | null }>('/api/services');
    return body.data ?? [];
  }

  /** One trace by id, or undefined when Jaeger does not have it (yet). */
  async trace(traceId: string): Promise<Trace | undefined> {
    const url = new URL(`/api/traces/${traceId}`, this.baseUrl);
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`Jaeger ${url.pathname} answered ${res.status}`);
    const body = (await res.json()) as { data: JaegerTrace[] | null };
    const raw = body.data?.[0];
    return raw ? normalizeTrace(raw) : undefined;
  }

  private async searchSlice(o: SearchOptions, fromMs: number, toMs: number): Promise<JaegerTrace[]> {
    const params: Record<string, string | number> = {
      service: o.service,
      start: Math.floor(fromMs * 1000),
      end: Math.ceil(toMs * 1000),
      limit: o.limit ?? 1000,
      lookback: 'custom',
    };
    if (o.operation) params.operation = o.operation;
    const body = await this.get<{ data: JaegerTrace[] | null }>('/api/traces', params);
    return body.data ?? [];
  }

  /** Every trace of `service` with a span starting in [fromMs, toMs), deduplicated. */
  async search(o: SearchOptions): Promise<Trace[]> {
    const limit = o.limit ?? 1000;
    const slice = o.sliceMs ?? 10_000;
    const found = new Map<string, JaegerTrace>();
    const pending: [number, number][] = [];
    for (let t = o.fromMs; t < o.toMs; t += slice) pending.push([t, Math.min(o.toMs, t + slice)]);
    while (pending.length > 0) {
      const [from, to] = pending.shift()!;
      const traces = await this.searchSlice(o, from, to);
      if (traces.length >= limit && to - from > MIN_SLICE_MS) {
        const mid = from + (to - from) / 2;
        pending.unshift([from, mid], [mid, to]);
        continue;
      }
      for (const t of traces) {
        const known = found.get(t.traceID);
        if (!known || known.spans.length < t.spans.length) found.set(t.traceID, t);
      }
    }
    return [...found.values()].map(normalizeTrace);
  }
}
