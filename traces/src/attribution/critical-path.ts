/**
 * Critical-path attribution of one trace: the path itself is walked by @shellgrade/trace-model
 * (the "latest-finishing child chain" method, shared with the console's waterfall); here each
 * span's own time on it is added to the component it belongs to.
 */
import { walkCriticalPath, type TraceSpan } from '@shellgrade/trace-model';
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
 *
 * One delivery can carry two consumer spans of the same producer: the client library's (amqplib's
 * "<queue> process") and ours (broker.consume, with the grading and its statements below it).
 * Side by side, the critical path would take whichever ends last — a coin toss between the span
 * that explains the time and an empty one — so an overlapping duplicate is dropped and its
 * children handed to the consumer span with the most spans below it.
 */
export function linkBrokerHandoffs(spans: TraceSpan[]): TraceSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  let out = spans.map((s) => ({ ...s }));
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
  const dropped = new Set<string>();
  const { children } = indexSpans(out);
  for (const [producerId, all] of consumersByProducer) consumersByProducer.set(producerId, withoutDuplicateConsumers(all, children, dropped));
  out = out.filter((s) => !dropped.has(s.spanId));
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
  const componentOfVisited = new Map<TraceSpan, Component>();
  for (const visit of walkCriticalPath(root, (span) => index.children.get(span.spanId) ?? [])) {
    const { span } = visit;
    const component = componentOf(span, visit.parent && componentOfVisited.get(visit.parent));
    componentOfVisited.set(span, component);
    // A client span's self time around its downstream server span is queueing before that service.
    const server = span.kind === 'client' ? visit.children.find((k) => k.kind === 'server') : undefined;
    const self = (server && queueingBefore(componentOf(server, component))) || component;
    const ownUs = visit.own.reduce((sum, [from, to]) => sum + (to - from), 0);
    if (ownUs > 0) times[self] = (times[self] ?? 0) + ownUs;
  }
  return times;
}

function descendantCount(spanId: string, children: Map<string, TraceSpan[]>): number {
  return (children.get(spanId) ?? []).reduce((n, c) => n + 1 + descendantCount(c.spanId, children), 0);
}

const overlaps = (a: TraceSpan, b: TraceSpan) => a.startUs < b.endUs && b.startUs < a.endUs;

/** The consumers of one producer without an overlapping duplicate of the richest one (dropped, its children moved to it). */
function withoutDuplicateConsumers(consumers: TraceSpan[], children: Map<string, TraceSpan[]>, dropped: Set<string>): TraceSpan[] {
  if (consumers.length < 2) return consumers;
  const primary = consumers.reduce((best, c) => (descendantCount(c.spanId, children) > descendantCount(best.spanId, children) ? c : best));
  for (const d of consumers.filter((c) => c !== primary && overlaps(c, primary))) {
    dropped.add(d.spanId);
    for (const child of children.get(d.spanId) ?? []) child.parentId = primary.spanId;
  }
  return consumers.filter((c) => !dropped.has(c.spanId));
}
