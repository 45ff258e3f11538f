/**
 * W3C trace context crosses the real RabbitMQ: the consumer's broker.consume span is a child
 * of the producer's broker.publish span (same trace) and carries the queue wait.
 */
import { randomBytes } from 'node:crypto';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import { RabbitMqConnection, RabbitMqConsumer, RabbitMqDispatch } from '../src/core';
import { BrokerFixture } from './support/broker-fixture';
import { FakeGrader } from './support/fake-grader';
import { brokerHops, startInMemoryTracing, type InMemoryTracing } from './support/in-memory-tracing';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';

jest.setTimeout(60_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';
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
  const queue = `sg.test.${randomBytes(4).toString('hex')}`;
  const connection = new RabbitMqConnection({ url: AMQP_URL, queue, maxLength: 100, deliveryLimit: 1 });
  const dispatch = new RabbitMqDispatch(connection, fx.productions, fx.archives, {
    queue,
    reply: 'sync',
    replyTimeoutMs: 10_000,
    publishTimeoutMs: 10_000,
    retryAfterSeconds: 1,
  });
  const consumer = new RabbitMqConsumer(connection, fx.worker(new FakeGrader(20)), fx.productions, {
    prefetch: 1,
    retries: 1,
    retryDelayMs: 10,
  });
  try {
    await dispatch.ready();
    await consumer.ready();
    const service = fx.submissions(dispatch);
    const production = await withSpan('test.sps', {}, () =>
      service.submit({ ...fx.seeded, archive: Buffer.from('traced'), submissionKey: randomBytes(8).toString('hex') }),
    );
    expect(production.status).toBe('graded');

    const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
    expect(root).toBeDefined();
    expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
    expect(consume?.attributes['messaging.system']).toBe('rabbitmq');
    expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
    const wait = consume?.attributes[ATTR.queueWaitMs];
    expect(typeof wait).toBe('number');
    console.log(`rabbitmq trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
  } finally {
    await consumer.close(2_000);
    await dispatch.close();
    await connection.close();
    await deleteRabbitTopologies(AMQP_URL, [queue]);
  }
});
