/**
 * A grading worker process for the BullMQ fault tests: real PostgreSQL, real Redis, real
 * GradingWorker around the test's fake grader. Configured by the environment.
 */
import { BullMqConnection, BullMqGradingWorker, loadBullMqConfig } from '../src/core';
// The worker process body (pool, GradingWorker, fake grader) is shared with brokers/rabbitmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { runWorkerProcess } from '../../../libs/dispatch/test/support/worker-process';

runWorkerProcess(async (grading, productions) => {
  const broker = loadBullMqConfig();
  const connection = new BullMqConnection({
    url: String(process.env.REDIS_URL),
    queue: broker.SG_BROKER_QUEUE,
    retries: broker.SG_BROKER_RETRIES,
    retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
    keepCompleted: broker.SG_BROKER_KEEP_COMPLETED,
    keepFailed: broker.SG_BROKER_KEEP_FAILED,
  });
  const worker = new BullMqGradingWorker(connection, grading, productions, {
    concurrency: broker.SG_BROKER_PREFETCH,
    lockMs: broker.SG_BROKER_LOCK_MS,
    stalledIntervalMs: broker.SG_BROKER_STALLED_INTERVAL_MS,
    maxStalled: broker.SG_BROKER_MAX_STALLED,
    sweepFailed: broker.SG_BROKER_KEEP_FAILED,
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
