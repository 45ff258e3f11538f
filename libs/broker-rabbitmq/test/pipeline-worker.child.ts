/**
 * A dispatch pipeline worker process for the kill -9 test: every filter (check, grade, record)
 * over real PostgreSQL, real RabbitMQ and the real sandboxed grader. Configured by
 * DATABASE_URL, AMQP_URL and SG_TEST_BROKER (JSON; its queue is the filters' prefix).
 */
import { filterQueue, pipelineFilters } from '@shellgrade/pipeline-filters';
import { validateArchive } from '@shellgrade/grading';
import { RabbitMqConnection, RabbitMqPipelineWorkers } from '../src';
/* eslint-disable @nx/enforce-module-boundaries */
import { archiveBoundsOf, graderSchema, httpSchema } from '@shellgrade/variant';
import { runWorkerProcess } from '../../dispatch/test/support/worker-process';
import { brokerSettingsFromEnv } from '../../dispatch/test/support/test-broker-settings';

const bounds = archiveBoundsOf({ http: httpSchema.parse({}), grader: graderSchema.parse({}) });

runWorkerProcess(async (_grading, productions, ports) => {
  const broker = brokerSettingsFromEnv();
  const connection = new RabbitMqConnection({
    url: String(process.env.AMQP_URL),
    queue: filterQueue(broker.queue, 'check'),
    maxLength: broker.queueBound,
    deliveryLimit: broker.retries,
    heartbeatSeconds: broker.rabbitmq.heartbeatS,
    reconnectSeconds: broker.rabbitmq.reconnectS,
  });
  const validator = { validate: async (bytes: Buffer) => void (await validateArchive(bytes, bounds)) };
  const workers = new RabbitMqPipelineWorkers(connection, pipelineFilters({ ...ports, productions, validator }), productions, {
    prefix: broker.queue,
    run: { check: { prefetch: broker.prefetch }, grade: { prefetch: broker.prefetch }, record: { prefetch: broker.prefetch } },
    retries: broker.retries,
    retryDelayMs: broker.retryDelayMs,
    publishTimeoutMs: broker.publishTimeoutMs,
    closeGraceMs: broker.rabbitmq.closeGraceMs,
  });
  await workers.ready();
  return {
    close: async () => {
      await workers.close();
      await connection.close();
    },
  };
});
