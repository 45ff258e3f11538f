/**
 * A grading worker process for the RabbitMQ fault tests: real PostgreSQL, real RabbitMQ,
 * real GradingWorker around the test's fake grader. Configured by the environment.
 */
// The broker test support (fake grader, real adapters) is shared with brokers/bullmq in libs/dispatch/test.
/* eslint-disable @nx/enforce-module-boundaries */
import { GradingWorker } from '@shellgrade/domain';
import { RabbitMqConnection, RabbitMqConsumer, loadRabbitMqConfig } from '../src/core';
import { PgProductionRepository, PgSubmissionContextReader, PostgresArchiveStore, createPool } from '../../../libs/dispatch/test/support/real-libs';
import { FakeGrader } from '../../../libs/dispatch/test/support/fake-grader';

async function main(): Promise<void> {
  const broker = loadRabbitMqConfig();
  const pool = createPool({ databaseUrl: String(process.env.DATABASE_URL), size: 10 });
  const productions = new PgProductionRepository(pool);
  const worker = new GradingWorker(
    new PgSubmissionContextReader(pool),
    productions,
    new PostgresArchiveStore(pool),
    new FakeGrader(Number(process.env.FAKE_GRADE_DELAY_MS ?? 50)),
  );
  const connection = new RabbitMqConnection({
    url: String(process.env.AMQP_URL),
    queue: broker.SG_BROKER_QUEUE,
    maxLength: broker.SG_BROKER_QUEUE_BOUND,
    deliveryLimit: broker.SG_BROKER_RETRIES,
  });
  const consumer = new RabbitMqConsumer(connection, worker, productions, {
    prefetch: broker.SG_BROKER_PREFETCH,
    retries: broker.SG_BROKER_RETRIES,
    retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
  });
  await consumer.ready();
  process.stdout.write(`READY pid=${process.pid}\n`);
  process.once('SIGTERM', () => {
    void consumer
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
