/**
 * A Jaeger trace (query-API JSON) as a waterfall: spans in tree order with depth, and the
 * critical path walked by @shellgrade/trace-model (the same walk as the latency attribution in
 * traces/), its own time per span, per service and per operation.
 */
import { normalizeTrace, walkCriticalPath, type JaegerTrace, type TraceSpan } from '@shellgrade/trace-model';

export type { JaegerTrace };

export interface WaterfallSpan {
  id: string;
  parentId?: string;
  name: string;
  service: string;
  kind: string;
  startUs: number;
  endUs: number;
  depth: number;
  error: boolean;
  /** Parts of this span on the critical path (its own time there), in µs since the epoch. */
  critical: [number, number][];
}

export interface Waterfall {
  traceId: string;
  startUs: number;
  endUs: number;
  spans: WaterfallSpan[];
  /** Critical-path time (µs) per service, largest first. */
  byService: { service: string; us: number }[];
  /** Critical-path time (µs) per operation (service and span name), largest first. */
  byOperation: { service: string; name: string; us: number }[];
  /** The critical path's length (the request's root span, µs). */
  criticalUs: number;
}

const failed = (s: TraceSpan) => s.tags.error === true || s.tags['otel.status_code'] === 'ERROR';

export function waterfallOf(trace: JaegerTrace): Waterfall {
  const spans = normalizeTrace(trace).spans;
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map<string, TraceSpan[]>();
  const roots: TraceSpan[] = [];
  for (const s of spans) {
    if (s.parentId === undefined || !byId.has(s.parentId)) roots.push(s);
    else children.set(s.parentId, [...(children.get(s.parentId) ?? []), s]);
  }
  const byStart = (a: TraceSpan, b: TraceSpan) => a.startUs - b.startUs;
  roots.sort(byStart);

  // Tree order, depth first (explicit stack: no recursion limit on deep traces).
  const ordered: WaterfallSpan[] = [];
  const rows = new Map<TraceSpan, WaterfallSpan>();
  const stack = roots.map((r) => ({ span: r, depth: 0 })).reverse();
  while (stack.length) {
    const { span, depth } = stack.pop()!;
    const row: WaterfallSpan = {
      id: span.spanId,
      parentId: span.parentId,
      name: span.name,
      service: span.service,
      kind: span.kind,
      startUs: span.startUs,
      endUs: span.endUs,
      depth,
      error: failed(span),
      critical: [],
    };
    rows.set(span, row);
    ordered.push(row);
    const kids = [...(children.get(span.spanId) ?? [])].sort(byStart).reverse();
    for (const k of kids) stack.push({ span: k, depth: depth + 1 });
  }

  // Critical path from the longest root (the request).
  const root = [...roots].sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs))[0];
  const byService = new Map<string, number>();
  const byOperation = new Map<string, { service: string; name: string; us: number }>();
  for (const visit of root ? walkCriticalPath(root, (s) => children.get(s.spanId) ?? []) : []) {
    const { span } = visit;
    for (const [from, to] of visit.own) {
      rows.get(span)!.critical.push([from, to]);
      byService.set(span.service, (byService.get(span.service) ?? 0) + (to - from));
      const key = `${span.service} ${span.name}`;
      const op = byOperation.get(key) ?? { service: span.service, name: span.name, us: 0 };
      op.us += to - from;
      byOperation.set(key, op);
    }
  }

  return {
    traceId: trace.traceID,
    startUs: Math.min(...spans.map((s) => s.startUs)),
    endUs: Math.max(...spans.map((s) => s.endUs)),
    spans: ordered,
    byService: [...byService].map(([service, us]) => ({ service, us })).sort((a, b) => b.us - a.us),
    byOperation: [...byOperation.values()].sort((a, b) => b.us - a.us),
    criticalUs: root ? root.endUs - root.startUs : 0,
  };
}

/** Is this span (or part of it) on the critical path? */
export const onCriticalPath = (s: WaterfallSpan): boolean => s.critical.length > 0;
