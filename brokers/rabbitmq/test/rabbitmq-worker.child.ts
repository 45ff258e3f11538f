/**
 * A grading worker process for the RabbitMQ fault tests: real PostgreSQL, real RabbitMQ,
 * real GradingWorker around the test's fake grader. Configured by the environment.
 */
import { RabbitMqConnection, RabbitMqConsumer, loadRabbitMqConfig } from '../src/core';
// The worker process body (pool, GradingWorker, fake grader) is shared with brokers/bullmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { runWorkerProcess } from '../../../libs/dispatch/test/support/worker-process';

runWorkerProcess(async (grading, productions) => {
  const broker = loadRabbitMqConfig();
  const connection = new RabbitMqConnection({
    url: String(process.env.AMQP_URL),
    queue: broker.SG_BROKER_QUEUE,
    maxLength: broker.SG_BROKER_QUEUE_BOUND,
    deliveryLimit: broker.SG_BROKER_RETRIES,
  });
  const consumer = new RabbitMqConsumer(connection, grading, productions, {
    prefetch: broker.SG_BROKER_PREFETCH,
    retries: broker.SG_BROKER_RETRIES,
    retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
  });
  await consumer.ready();
  return {
    close: async () => {
      await consumer.close();
      await connection.close();
    },
  };
});
