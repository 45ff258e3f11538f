/**
 * Spans around broker publish and consume. The consume span is a child of the
 * producer's span (extracted from headers) and carries the queue wait, so the trace
 * shows publish → queue wait → consume on one critical path.
 */
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { extractTraceContext, injectTraceHeaders, queueWaitMs, type MessageHeaders } from './propagation';
import { ATTR, SPAN } from './span-names';
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
