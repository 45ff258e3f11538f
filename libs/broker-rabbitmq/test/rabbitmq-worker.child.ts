/**
 * A grading worker process for the RabbitMQ fault tests: real PostgreSQL, real RabbitMQ,
 * real GradingWorker around the test's fake grader. Configured by DATABASE_URL, AMQP_URL and SG_TEST_BROKER (JSON).
 */
import { RabbitMqConnection, RabbitMqConsumer } from '../src';
// The worker process body (pool, GradingWorker, fake grader) is shared with libs/broker-bullmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { runWorkerProcess } from '../../dispatch/test/support/worker-process';
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { brokerSettingsFromEnv } from '../../dispatch/test/support/test-broker-settings';

runWorkerProcess(async (grading, productions) => {
  const broker = brokerSettingsFromEnv();
  const connection = new RabbitMqConnection({
    url: String(process.env.AMQP_URL),
    queue: broker.queue,
    maxLength: broker.queueBound,
    deliveryLimit: broker.retries,
    heartbeatSeconds: broker.rabbitmq.heartbeatS,
    reconnectSeconds: broker.rabbitmq.reconnectS,
  });
  const consumer = new RabbitMqConsumer(connection, grading, productions, {
    prefetch: broker.prefetch,
    retries: broker.retries,
    retryDelayMs: broker.retryDelayMs,
    closeGraceMs: broker.rabbitmq.closeGraceMs,
  });
  await consumer.ready();
  return {
    close: async () => {
      await consumer.close();
      await connection.close();
    },
  };
});
