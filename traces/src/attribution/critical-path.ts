/**
 * Critical-path attribution of one trace (the "latest-finishing child chain" method of
 * Jaeger's critical-path view): starting at the end of a span, the child finishing last
 * (clamped to the span's window) is on the critical path; before it, the child finishing
 * last before that child started, and so on. Gaps between them are the span's own self
 * time. Children are clamped to their parent's window, so async work finishing after
 * the parent, and overlapped siblings, add nothing.
 */
import type { TraceSpan } from '../jaeger/span';
import { componentOf, isConsumer, isProducer, queueingBefore, QUEUE_WAIT_SPAN, type Component } from './components';

export type ComponentTimes = Partial<Record<Component, number>>;

export interface SpanIndex {
  byId: Map<string, TraceSpan>;
  children: Map<string, TraceSpan[]>;
}

export function indexSpans(spans: TraceSpan[]): SpanIndex {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map<string, TraceSpan[]>();
  for (const s of spans) {
    if (s.parentId === undefined || !byId.has(s.parentId)) continue;
    const list = children.get(s.parentId) ?? [];
    list.push(s);
    children.set(s.parentId, list);
  }
  return { byId, children };
}

/**
 * Broker hand-offs: a consumer span's parent is the producer span, which ended long
 * before consumption. To keep publish → queue wait → consume on one path, consumers
 * are re-parented to the first non-producer ancestor of the producer, next to a
 * synthetic queue-wait span covering [end of the outermost producer, first consume start].
 */
export function linkBrokerHandoffs(spans: TraceSpan[]): TraceSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const out = spans.map((s) => ({ ...s }));
  const outById = new Map(out.map((s) => [s.spanId, s]));
  const consumersByProducer = new Map<string, TraceSpan[]>();
  for (const s of out) {
    if (!isConsumer(s) || s.parentId === undefined) continue;
    const parent = byId.get(s.parentId);
    if (!parent || !isProducer(parent)) continue;
    // Climb to the outermost producer (our broker.publish may wrap the client library's).
    let top = parent;
    for (let up = top.parentId ? byId.get(top.parentId) : undefined; up && isProducer(up); up = up.parentId ? byId.get(up.parentId) : undefined) {
      top = up;
    }
    const list = consumersByProducer.get(top.spanId) ?? [];
    list.push(s);
    consumersByProducer.set(top.spanId, list);
  }
  for (const [producerId, consumers] of consumersByProducer) {
    const producer = outById.get(producerId)!;
    const firstStart = Math.min(...consumers.map((c) => c.startUs));
    for (const c of consumers) c.parentId = producer.parentId;
    if (firstStart > producer.endUs) {
      out.push({
        traceId: producer.traceId,
        spanId: `${producer.spanId}:queue`,
        parentId: producer.parentId,
        name: QUEUE_WAIT_SPAN,
        service: producer.service,
        kind: 'internal',
        startUs: producer.endUs,
        endUs: firstStart,
        tags: {},
        resource: producer.resource,
        synthetic: true,
      });
    }
  }
  return out;
}

/** Adds each critical-path span's non-overlapped self time (µs) to its component. */
export function attributeCriticalPath(root: TraceSpan, index: SpanIndex): ComponentTimes {
  const times: ComponentTimes = {};
  const add = (c: Component, us: number) => {
    if (us > 0) times[c] = (times[c] ?? 0) + us;
  };

  // Explicit stack instead of recursion: deep or long traces cannot overflow.
  const stack: { span: TraceSpan; lo: number; hi: number; parent: Component | undefined }[] = [
    { span: root, lo: root.startUs, hi: root.endUs, parent: undefined },
  ];
  while (stack.length > 0) {
    const { span, lo, hi, parent } = stack.pop()!;
    const start = Math.max(span.startUs, lo);
    const end = Math.min(span.endUs, hi);
    if (end <= start) continue;
    const component = componentOf(span, parent);
    const kids = (index.children.get(span.spanId) ?? []).filter((c) => c.endUs > start && c.startUs < end);
    // A client span's self time around its downstream server span is queueing before that service.
    const server = span.kind === 'client' ? kids.find((k) => k.kind === 'server') : undefined;
    const self = (server && queueingBefore(componentOf(server, component))) || component;
    // Latest end first; walking the list once works because the cursor only moves left.
    kids.sort((a, b) => b.endUs - a.endUs);
    let cursor = end;
    for (const kid of kids) {
      if (kid.startUs >= cursor) continue; // overlapped by a later child already on the path
      const kidEnd = Math.min(kid.endUs, cursor);
      const kidStart = Math.max(kid.startUs, start);
      add(self, cursor - kidEnd);
      stack.push({ span: kid, lo: kidStart, hi: kidEnd, parent: component });
      cursor = kidStart;
      if (cursor <= start) break;
    }
    add(self, cursor - start);
  }
  return times;
}
