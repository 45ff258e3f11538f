/**
 * The grading side of dispatch: rabbitmq: every exercise replica consumes the work queue
 * (prefetch = its grading concurrency) with the one GradingWorker doing the whole grading per
 * message. GradingWorker is idempotent, so a redelivery of a graded production is acked
 * without regrading, and one whose answer deadline passed while it was queued ends expired
 * without a sandbox. Retries, dead-lettering and the sync reply are QueueConsumer's.
 */
import type { GradingWorker, ProductionRepository } from '@shellgrade/domain';
import { gradingMessageSchema, type GradingMessage } from '@shellgrade/dispatch';
import type { RabbitMqConnection } from './rabbitmq-connection';
import { QueueConsumer, type QueueConsumerOptions } from './queue-consumer';

export type RabbitMqConsumerOptions = QueueConsumerOptions;

export class RabbitMqConsumer extends QueueConsumer<GradingMessage> {
  constructor(connection: RabbitMqConnection, worker: GradingWorker, productions: ProductionRepository, options: RabbitMqConsumerOptions) {
    super(
      connection,
      { name: 'sg-consume', topology: connection.topology, schema: gradingMessageSchema, handle: ({ productionId, deadline }) => worker.grade(productionId, { deadline }) },
      productions,
      options,
    );
  }
}
