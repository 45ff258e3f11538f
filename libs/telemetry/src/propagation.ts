/**
 * W3C trace-context in message headers, so a broker consumer continues the producer's
 * trace. Headers are a plain string map (AMQP headers, BullMQ job data, ...).
 */
import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { PUBLISHED_AT_HEADER } from './span-names';

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
