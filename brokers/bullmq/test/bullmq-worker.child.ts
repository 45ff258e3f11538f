/**
 * A grading worker process for the BullMQ fault tests: real PostgreSQL, real Redis, real
 * GradingWorker around the test's fake grader. Configured by the environment.
 */
// The broker test support (fake grader, real adapters) is shared with brokers/rabbitmq in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { GradingWorker } from '@shellgrade/domain';
import { BullMqConnection, BullMqGradingWorker, loadBullMqConfig } from '../src/core';
import { FakeGrader } from '../../../libs/dispatch/test/support/fake-grader';
import {
  PgProductionRepository,
  PgSubmissionContextReader,
  PostgresArchiveStore,
  createPool,
} from '../../../libs/dispatch/test/support/real-libs';

async function main(): Promise<void> {
  const broker = loadBullMqConfig();
  const pool = createPool({ databaseUrl: String(process.env.DATABASE_URL), size: 10 });
  const productions = new PgProductionRepository(pool);
  const grading = new GradingWorker(
    new PgSubmissionContextReader(pool),
    productions,
    new PostgresArchiveStore(pool),
    new FakeGrader(Number(process.env.FAKE_GRADE_DELAY_MS ?? 50)),
  );
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
  process.stdout.write(`READY pid=${process.pid}\n`);
  process.once('SIGTERM', () => {
    void worker
      .close()
      .then(() => connection.close())
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
