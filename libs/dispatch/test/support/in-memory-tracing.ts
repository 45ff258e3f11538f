/**
 * The real OpenTelemetry SDK with an in-memory exporter, to check that a trace crosses the
 * real broker: publish → (queue wait) → consume, one trace id, consume parented to publish.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface InMemoryTracing {
  spans: () => ReadableSpan[];
  stop: () => void;
}

export function startInMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    spans: () => exporter.getFinishedSpans(),
    stop: () => {
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The publish/consume pair of the trace rooted at `root` (a test span around one SPS). */
export function brokerHops(spans: ReadableSpan[], rootName: string) {
  const root = spans.find((s) => s.name === rootName);
  const inTrace = spans.filter((s) => root && s.spanContext().traceId === root.spanContext().traceId);
  return {
    root,
    publish: inTrace.find((s) => s.name === 'broker.publish'),
    consume: inTrace.find((s) => s.name === 'broker.consume'),
  };
}
