/**
 * Span helpers for the other libs. They depend only on @opentelemetry/api, which is a
 * no-op until the preload (libs/wiring/src/telemetry-preload.ts) starts the SDK, so calling them costs a
 * few function calls when tracing is off.
 */
import { SpanStatusCode, trace, type Attributes, type Span, type SpanKind } from '@opentelemetry/api';

const TRACER_NAME = 'shellgrade';

export function tracer() {
  return trace.getTracer(TRACER_NAME);
}

export interface WithSpanOptions {
  kind?: SpanKind;
}

/**
 * Runs `fn` inside a new active span: exceptions are recorded and set the status to
 * ERROR, then rethrown; the span always ends.
 */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
  options: WithSpanOptions = {},
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind: options.kind }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export function recordError(span: Span, error: unknown): void {
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
  }
}
