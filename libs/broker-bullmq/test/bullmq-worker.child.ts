/**
 * A grading worker process for the BullMQ fault tests: real PostgreSQL, real Redis, real
 * GradingWorker around the test's fake grader. Configured by DATABASE_URL, REDIS_URL and SG_TEST_BROKER (JSON).
 */
import { BullMqConnection, BullMqConsumer } from '../src';
// The worker process body (pool, GradingWorker, fake grader) is shared with libs/broker-rabbitmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { runWorkerProcess } from '../../dispatch/test/support/worker-process';
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { brokerSettingsFromEnv } from '../../dispatch/test/support/test-broker-settings';

runWorkerProcess(async (grading, productions) => {
  const broker = brokerSettingsFromEnv();
  const connection = new BullMqConnection({
    url: String(process.env.REDIS_URL),
    queue: broker.queue,
    retries: broker.retries,
    retryDelayMs: broker.retryDelayMs,
    keepCompleted: broker.bullmq.keepCompleted,
    keepFailed: broker.bullmq.keepFailed,
  });
  const worker = new BullMqConsumer(connection, grading, productions, {
    concurrency: broker.prefetch,
    lockMs: broker.bullmq.lockMs,
    stalledIntervalMs: broker.bullmq.stalledIntervalMs,
    maxStalled: broker.bullmq.maxStalled,
    sweepFailed: broker.bullmq.keepFailed,
  });
  await connection.ready();
  await worker.ready();
  return {
    close: async () => {
      await worker.close();
      await connection.close();
    },
  };
});
