import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ArchiveStore, Grader } from '@shellgrade/domain';
import {
  ATTR,
  extractTraceContext,
  injectTraceHeaders,
  PUBLISHED_AT_HEADER,
  queueWaitMs,
  SPAN,
  tracedArchiveStore,
  tracedConsume,
  tracedGrader,
  tracedPublish,
  withSpan,
} from '../src';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();

beforeAll(() => {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterEach(() => exporter.reset());
afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

const finished = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;

describe('withSpan', () => {
  it('returns the result, keeps the span active and ends it', async () => {
    const value = await withSpan('unit.ok', { a: 1 }, async (span) => {
      expect(trace.getActiveSpan()).toBe(span);
      return 42;
    });
    expect(value).toBe(42);
    expect(finished('unit.ok').attributes).toEqual({ a: 1 });
    expect(finished('unit.ok').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records the exception, sets ERROR and rethrows', async () => {
    await expect(withSpan('unit.fail', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const span = finished('unit.fail');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });
});

describe('message propagation', () => {
  it('round-trips the active context through headers with the publish time', async () => {
    await withSpan('unit.parent', {}, async (parent) => {
      const headers = injectTraceHeaders({ keep: 'me' }, 1_000);
      expect(headers.keep).toBe('me');
      expect(headers.traceparent).toContain(parent.spanContext().traceId);
      expect(headers[PUBLISHED_AT_HEADER]).toBe('1000');
      const extracted = trace.getSpanContext(extractTraceContext({ ...headers, traceparent: Buffer.from(headers.traceparent) }));
      expect(extracted?.spanId).toBe(parent.spanContext().spanId);
    });
  });

  it('computes queue wait and tolerates missing or bad headers', () => {
    expect(queueWaitMs({ [PUBLISHED_AT_HEADER]: '1000' }, 1_250)).toBe(250);
    expect(queueWaitMs({ [PUBLISHED_AT_HEADER]: Buffer.from('1000') }, 900)).toBe(0);
    expect(queueWaitMs({ [PUBLISHED_AT_HEADER]: 'x' })).toBeUndefined();
    expect(queueWaitMs(undefined)).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext(undefined))).toBeUndefined();
  });

  it('parents the consume span to the publisher and records the queue wait', async () => {
    let sent: Record<string, string> = {};
    await tracedPublish({ system: 'rabbitmq', queue: 'grading' }, async (headers) => {
      sent = headers;
    });
    const publish = finished(SPAN.brokerPublish);
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    const result = await tracedConsume({ system: 'rabbitmq', queue: 'grading' }, sent, async () => {
      await withSpan('unit.inside-consume', {}, async () => undefined);
      return 'done';
    });
    expect(result).toBe('done');
    const consume = finished(SPAN.brokerConsume);
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(consume.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(consume.spanContext().traceId).toBe(publish.spanContext().traceId);
    expect(typeof consume.attributes[ATTR.queueWaitMs]).toBe('number');
    expect(finished('unit.inside-consume').parentSpanContext?.spanId).toBe(consume.spanContext().spanId);
  });

  it('marks a failed consume as ERROR', async () => {
    await expect(tracedConsume({ system: 'bullmq', queue: 'q' }, {}, () => Promise.reject(new Error('nack')))).rejects.toThrow('nack');
    expect(finished(SPAN.brokerConsume).status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('traced ports', () => {
  const job = { exerciseId: 7, graderScript: '', statementHtml: '', questionArchive: Buffer.alloc(0), submission: Buffer.alloc(10), locale: 'en' };

  it('wraps a grader in grading.grade with exercise id and grade', async () => {
    const grader: Grader = { grade: async () => ({ grade: 85, comment: [] }) };
    await expect(tracedGrader(grader, 'async').grade(job)).resolves.toEqual({ grade: 85, comment: [] });
    expect(finished(SPAN.grade).attributes).toMatchObject({ [ATTR.exerciseId]: 7, [ATTR.grade]: 85, [ATTR.archiveBytes]: 10 });
  });

  it('wraps an archive store put/get, and passes delete through', async () => {
    const calls: string[] = [];
    const store: ArchiveStore = {
      put: async (id) => ({ key: `k${id}`, sha256: 'x' }),
      get: async () => Buffer.from('abc'),
      delete: async (id) => void calls.push(`delete ${id}`),
    };
    const traced = tracedArchiveStore(store, 'postgres');
    await traced.put(3, Buffer.from('abcd'));
    await traced.get(3);
    await traced.delete(3);
    expect(finished(SPAN.storagePut).attributes).toMatchObject({ [ATTR.storageKey]: 'k3', [ATTR.archiveBytes]: 4, [ATTR.storageBackend]: 'postgres' });
    expect(finished(SPAN.storageGet).attributes).toMatchObject({ [ATTR.archiveBytes]: 3 });
    expect(calls).toEqual(['delete 3']);
  });
});
