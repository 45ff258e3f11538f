/**
 * A Jaeger trace (query-API JSON) as a waterfall: spans in tree order with depth, and the
 * critical path by the "latest-finishing child chain" method (as Jaeger's critical-path view
 * and traces/src/attribution do): from the end of a span, the child finishing last (clamped
 * to the span's window) is on the path; before it, the child finishing last before that
 * child started, and so on; the gaps are the span's own time on the path.
 */

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references?: { refType: string; traceID: string; spanID: string }[];
  startTime: number;
  duration: number;
  tags?: { key: string; value: unknown }[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

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

export function waterfallOf(trace: JaegerTrace): Waterfall {
  const spans = new Map<string, WaterfallSpan>();
  for (const s of trace.spans) {
    const tags = new Map((s.tags ?? []).map((t) => [t.key, t.value]));
    const parent = s.references?.find((r) => r.refType === 'CHILD_OF') ?? s.references?.[0];
    spans.set(s.spanID, {
      id: s.spanID,
      parentId: parent?.spanID,
      name: s.operationName,
      service: trace.processes[s.processID]?.serviceName ?? 'unknown',
      kind: String(tags.get('span.kind') ?? 'internal'),
      startUs: s.startTime,
      endUs: s.startTime + s.duration,
      depth: 0,
      error: tags.get('error') === true || tags.get('otel.status_code') === 'ERROR',
      critical: [],
    });
  }
  const children = new Map<string, WaterfallSpan[]>();
  const roots: WaterfallSpan[] = [];
  for (const s of spans.values()) {
    const p = s.parentId !== undefined ? spans.get(s.parentId) : undefined;
    if (!p) roots.push(s);
    else children.set(p.id, [...(children.get(p.id) ?? []), s]);
  }
  const byStart = (a: WaterfallSpan, b: WaterfallSpan) => a.startUs - b.startUs;
  roots.sort(byStart);

  // Tree order, depth first (explicit stack: no recursion limit on deep traces).
  const ordered: WaterfallSpan[] = [];
  const stack = roots.map((r) => ({ span: r, depth: 0 })).reverse();
  while (stack.length) {
    const { span, depth } = stack.pop()!;
    span.depth = depth;
    ordered.push(span);
    const kids = [...(children.get(span.id) ?? [])].sort(byStart).reverse();
    for (const k of kids) stack.push({ span: k, depth: depth + 1 });
  }

  // Critical path from the longest root (the request), clamped to each parent's window.
  const root = [...roots].sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs))[0];
  const byService = new Map<string, number>();
  const byOperation = new Map<string, { service: string; name: string; us: number }>();
  if (root) {
    const work = [{ span: root, lo: root.startUs, hi: root.endUs }];
    while (work.length) {
      const { span, lo, hi } = work.pop()!;
      const start = Math.max(span.startUs, lo);
      const end = Math.min(span.endUs, hi);
      if (end <= start) continue;
      const kids = (children.get(span.id) ?? []).filter((c) => c.endUs > start && c.startUs < end).sort((a, b) => b.endUs - a.endUs);
      let cursor = end;
      const own = (from: number, to: number) => {
        if (to <= from) return;
        span.critical.push([from, to]);
        byService.set(span.service, (byService.get(span.service) ?? 0) + (to - from));
        const op = byOperation.get(`${span.service} ${span.name}`) ?? { service: span.service, name: span.name, us: 0 };
        op.us += to - from;
        byOperation.set(`${span.service} ${span.name}`, op);
      };
      for (const kid of kids) {
        if (kid.startUs >= cursor) continue;
        const kidEnd = Math.min(kid.endUs, cursor);
        const kidStart = Math.max(kid.startUs, start);
        own(kidEnd, cursor);
        work.push({ span: kid, lo: kidStart, hi: kidEnd });
        cursor = kidStart;
        if (cursor <= start) break;
      }
      own(start, cursor);
    }
  }

  const all = [...spans.values()];
  return {
    traceId: trace.traceID,
    startUs: Math.min(...all.map((s) => s.startUs)),
    endUs: Math.max(...all.map((s) => s.endUs)),
    spans: ordered,
    byService: [...byService].map(([service, us]) => ({ service, us })).sort((a, b) => b.us - a.us),
    byOperation: [...byOperation.values()].sort((a, b) => b.us - a.us),
    criticalUs: root ? root.endUs - root.startUs : 0,
  };
}

/** Is this span (or part of it) on the critical path? */
export const onCriticalPath = (s: WaterfallSpan): boolean => s.critical.length > 0;
