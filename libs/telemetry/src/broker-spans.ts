/**
 * Spans around broker publish and consume. The consume span is a child of the
 * producer's span (extracted from headers) and carries the queue wait, so the trace
 * shows publish → queue wait → consume on one critical path. The trace context travels in the
 * message headers (below: W3C trace-context and the publish time).
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import { ATTR, PUBLISHED_AT_HEADER, SPAN } from './span-names';
import { recordError, tracer, withSpan } from './with-span';

export interface BrokerSpanInfo {
  system: 'rabbitmq' | 'bullmq' | 'http' | string;
  queue: string;
}

/** Publishes inside a `broker.publish` span; `send` receives headers carrying the trace. */
export function tracedPublish<T>(info: BrokerSpanInfo, send: (headers: MessageHeaders) => Promise<T>): Promise<T> {
  return withSpan(
    SPAN.brokerPublish,
    { [ATTR.messagingSystem]: info.system, [ATTR.queue]: info.queue },
    () => send(injectTraceHeaders()),
    { kind: SpanKind.PRODUCER },
  );
}

/** Handles one message inside a `broker.consume` span parented to the producer's context. */
export async function tracedConsume<T>(
  info: BrokerSpanInfo,
  headers: Record<string, unknown> | undefined,
  handle: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = extractTraceContext(headers);
  const wait = queueWaitMs(headers);
  const span = tracer().startSpan(
    SPAN.brokerConsume,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        [ATTR.messagingSystem]: info.system,
        [ATTR.queue]: info.queue,
        ...(wait === undefined ? {} : { [ATTR.queueWaitMs]: wait }),
      },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => handle(span));
  } catch (error) {
    recordError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * W3C trace-context in message headers, so a broker consumer continues the producer's
 * trace. Headers are a plain string map (AMQP headers, BullMQ job data, ...).
 */
export type MessageHeaders = Record<string, string>;

/** Returns headers carrying the active context (traceparent/tracestate) and the publish time. */
export function injectTraceHeaders(headers: MessageHeaders = {}, now: number = Date.now()): MessageHeaders {
  const out: MessageHeaders = { ...headers };
  propagation.inject(context.active(), out);
  out[PUBLISHED_AT_HEADER] = String(now);
  return out;
}

/** Context of the producer, to be used as the parent of the consume span. */
export function extractTraceContext(headers: Record<string, unknown> | undefined): Context {
  if (!headers) return ROOT_CONTEXT;
  const carrier: MessageHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v === 'string') carrier[k] = v;
    else if (Buffer.isBuffer(v)) carrier[k] = v.toString('utf8');
  }
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Milliseconds the message waited in the queue, or undefined when the header is missing/bad. */
export function queueWaitMs(headers: Record<string, unknown> | undefined, now: number = Date.now()): number | undefined {
  const raw = headers?.[PUBLISHED_AT_HEADER];
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  const publishedAt = typeof text === 'string' || typeof text === 'number' ? Number(text) : NaN;
  return Number.isFinite(publishedAt) ? Math.max(0, now - publishedAt) : undefined;
}
