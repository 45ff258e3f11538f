/**
 * W3C trace context crosses the real BullMQ/Redis: the worker's broker.consume span is a
 * child of the producer's broker.publish span (same trace) and carries the queue wait.
 */
import { randomBytes } from 'node:crypto';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import { BullMqConnection, BullMqDispatch, BullMqGradingWorker } from '../src/core';
// The broker test support is shared with brokers/rabbitmq/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { BrokerFixture } from '../../rabbitmq/test/support/broker-fixture';
import { FakeGrader } from '../../rabbitmq/test/support/fake-grader';
import { brokerHops, startInMemoryTracing, type InMemoryTracing } from '../../rabbitmq/test/support/in-memory-tracing';

jest.setTimeout(60_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';
let fx: BrokerFixture;
let tracing: InMemoryTracing;

beforeAll(async () => {
  tracing = startInMemoryTracing();
  fx = await BrokerFixture.create();
});
afterAll(async () => {
  tracing.stop();
  await fx?.close();
});

test('one trace: sps → broker.publish → broker.consume (child, with queue wait)', async () => {
  const connection = new BullMqConnection({
    url: REDIS_URL,
    queue: `sg-test-${randomBytes(4).toString('hex')}`,
    retries: 1,
    retryDelayMs: 10,
    keepCompleted: 10,
    keepFailed: 10,
  });
  const dispatch = new BullMqDispatch(connection, fx.productions, fx.archives, {
    reply: 'sync',
    maxWaiting: 100,
    replyTimeoutMs: 10_000,
    publishTimeoutMs: 10_000,
    retryAfterSeconds: 1,
  });
  const worker = new BullMqGradingWorker(connection, fx.worker(new FakeGrader(20)), fx.productions, {
    concurrency: 1,
    lockMs: 5_000,
    stalledIntervalMs: 5_000,
    maxStalled: 1,
    sweepFailed: 10,
  });
  try {
    await connection.ready();
    await worker.ready();
    const service = fx.submissions(dispatch);
    const production = await withSpan('test.sps', {}, () =>
      service.submit({ ...fx.seeded, archive: Buffer.from('traced'), submissionKey: randomBytes(8).toString('hex') }),
    );
    expect(production.status).toBe('graded');

    const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
    expect(root).toBeDefined();
    expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
    expect(consume?.attributes['messaging.system']).toBe('bullmq');
    expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
    const wait = consume?.attributes[ATTR.queueWaitMs];
    expect(typeof wait).toBe('number');
    console.log(`bullmq trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
  } finally {
    await worker.close();
    await connection.queue.obliterate({ force: true }).catch(() => undefined);
    await connection.close();
  }
});
