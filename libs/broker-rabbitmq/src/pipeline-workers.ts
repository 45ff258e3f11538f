/**
 * dispatch: pipeline over RabbitMQ: one QueueConsumer per filter this process runs, each on
 * its own queue (<prefix>.<filter>) with its own prefetch, and one confirm channel on which a
 * filter passes a production on to the next queue. A message is acked only after the next
 * queue confirmed the one passed on (or the outcome was stored), so a worker dying between
 * filters loses nothing; the publish carries the trace (one tree: publish → consume → publish
 * → consume ...) and the sync requester's address. The filters themselves are libs/pipeline-filters'.
 */
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ProductionRepository } from '@shellgrade/domain';
import { messageIdOf } from '@shellgrade/dispatch';
import { filterQueue, PIPELINE_FILTERS, pipelineMessageSchema, type Filter, type PipelineFilterName, type PipelineMessage } from '@shellgrade/pipeline-filters';
import { tracedPublish } from '@shellgrade/telemetry';
import { encodeJson } from './grading-reply';
import { QueueConsumer, replyAddressOf, REPLY_TO_HEADER, type QueueConsumerOptions } from './queue-consumer';
import type { RabbitMqConnection } from './rabbitmq-connection';
import { topologyOf } from './topology';

export interface PipelineWorkersOptions extends Omit<QueueConsumerOptions, 'prefetch'> {
  /** Prefix of the filters' queues (spec: broker.queue). */
  prefix: string;
  /** The filters this process runs, with each one's prefetch (spec: pipeline.<filter>). */
  run: Partial<Record<PipelineFilterName, { prefetch: number }>>;
  /** How long passing a message on may wait for the broker's confirm before the message is retried. */
  publishTimeoutMs: number;
}

export class RabbitMqPipelineWorkers {
  private readonly forward: ChannelWrapper;
  readonly consumers: Partial<Record<PipelineFilterName, QueueConsumer<PipelineMessage>>> = {};

  constructor(
    connection: RabbitMqConnection,
    filters: Record<PipelineFilterName, Filter>,
    productions: ProductionRepository,
    private readonly options: PipelineWorkersOptions,
  ) {
    this.forward = connection.createChannel({
      name: 'sg-pipeline-forward',
      confirm: true,
      publishTimeout: options.publishTimeoutMs,
      setup: async (ch: ConfirmChannel) => {
        for (const filter of PIPELINE_FILTERS) await connection.assertTopologyOf(ch, topologyOf(filterQueue(options.prefix, filter)));
      },
    });
    for (const filter of PIPELINE_FILTERS) {
      const run = options.run[filter];
      if (!run) continue;
      this.consumers[filter] = new QueueConsumer(
        connection,
        {
          name: `sg-pipeline-${filter}`,
          topology: topologyOf(filterQueue(options.prefix, filter)),
          schema: pipelineMessageSchema,
          step: `the ${filter} filter`,
          handle: async (body, delivery) => {
            const result = await filters[filter](body);
            if ('gone' in result) return null;
            if ('done' in result) return result.done;
            await this.pass(result.next, result.message, delivery);
            return null;
          },
        },
        productions,
        { ...options, prefetch: run.prefetch },
      );
    }
  }

  /** Resolves once the forwarding channel and every filter's consumer are set up. */
  async ready(): Promise<void> {
    await this.forward.waitForConnect();
    await Promise.all(Object.values(this.consumers).map((c) => c.ready()));
  }

  /** Stops every filter (in-flight messages finish within closeGraceMs), then the forwarding channel. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.consumers).map((c) => c.close()));
    await this.forward.close();
  }

  /** Hands `message` to `next`'s queue; resolves once the broker confirmed it (then the delivery may be acked). */
  private async pass(next: PipelineFilterName, message: PipelineMessage, delivery: ConsumeMessage): Promise<void> {
    const queue = filterQueue(this.options.prefix, next);
    const address = replyAddressOf(delivery);
    await tracedPublish({ system: 'rabbitmq', queue }, (headers) =>
      this.forward.sendToQueue(queue, encodeJson(message), {
        persistent: true,
        contentType: 'application/json',
        messageId: messageIdOf(message.productionId),
        timestamp: Math.floor(Date.now() / 1000),
        headers: address ? { ...headers, [REPLY_TO_HEADER]: address.replyTo } : headers,
        ...(address ? { correlationId: address.correlationId } : {}),
      }),
    );
  }
}
