/**
 * The RabbitMQ side of a queue dispatch (QueueTransport, @shellgrade/broker-queue): {productionId,
 * deadline} published persistent on a confirm channel, the work queue's bound enforced by the
 * broker (x-overflow reject-publish: a nack means the queue is full), and for `sync` replies the
 * worker's reply awaited on direct reply-to, matched by correlation id. The reply carries the
 * production as the worker stored it, so the requester need not read it back.
 */
import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ArchiveStore, ExerciseProduction, ProductionRepository } from '@shellgrade/domain';
import { messageIdOf, type GradingMessage } from '@shellgrade/dispatch';
import { QueueDispatch, type PublishedGrading, type QueueDispatchOptions, type QueueTransport } from '@shellgrade/broker-queue';
import type { MessageHeaders } from '@shellgrade/telemetry';
import type { RabbitMqConnection } from './rabbitmq-connection';
import { decodeJson, encodeJson, gradingReplySchema } from './grading-reply';
import { PendingReplies } from './pending-replies';

export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';
/** amqplib's error for a publish the broker nacked (here: x-overflow reject-publish). */
const NACKED = 'message nacked';
/** How often a sync request whose reply channel was replaced re-reads its production. */
const RECONNECT_POLL_MS = 500;

export interface RabbitMqTransportOptions {
  queue: string;
  reply: 'sync' | 'async';
  /** How long a publish may wait for the broker's confirm before the submission is refused. */
  publishTimeoutMs: number;
}

export class RabbitMqTransport implements QueueTransport {
  readonly system = 'rabbitmq';
  readonly queue: string;
  private readonly channel: ChannelWrapper;
  private readonly replies = new PendingReplies();
  /** Productions carried by replies, by correlation id, until their requester takes them. */
  private readonly repliedProductions = new Map<string, ExerciseProduction>();
  private connections = 0;

  constructor(
    connection: RabbitMqConnection,
    private readonly productions: Pick<ProductionRepository, 'findById'>,
    options: RabbitMqTransportOptions,
  ) {
    this.queue = options.queue;
    this.channel = connection.createChannel({
      name: 'sg-dispatch',
      confirm: true,
      publishTimeout: options.publishTimeoutMs,
      setup: async (ch: ConfirmChannel) => {
        await connection.assertTopology(ch);
        // Direct reply-to must be consumed (no-ack) on the publishing channel before any publish
        // that names it; setup runs before queued publishes are flushed, on every reconnection.
        if (options.reply === 'sync') await ch.consume(DIRECT_REPLY_TO, (msg) => this.onReply(msg), { noAck: true });
      },
    });
    this.channel.on('connect', () => {
      // Not the first connection: replies to the previous channel's reply-to are gone.
      if (this.connections++ > 0) this.replies.pollAfterReconnect((id) => this.isFinal(id), RECONNECT_POLL_MS);
    });
  }

  async publish(message: GradingMessage, headers: MessageHeaders, replyBy: number | undefined): Promise<PublishedGrading> {
    const correlationId = replyBy === undefined ? undefined : randomUUID();
    // Waiting before the publish: a fast worker's reply may come before the confirm.
    const reply = correlationId ? this.replies.expect(correlationId, message.productionId, Math.max(0, replyBy! - Date.now())) : undefined;
    try {
      await this.channel.sendToQueue(this.queue, encodeJson(message), {
        persistent: true,
        contentType: 'application/json',
        messageId: messageIdOf(message.productionId),
        timestamp: Math.floor(Date.now() / 1000),
        headers,
        ...(correlationId ? { correlationId, replyTo: DIRECT_REPLY_TO } : {}),
      });
    } catch (error) {
      reply?.cancel();
      throw error;
    }
    return {
      outcome: async () => {
        if (!reply || !correlationId) return undefined;
        await reply.done;
        const replied = this.repliedProductions.get(correlationId);
        this.repliedProductions.delete(correlationId);
        return replied;
      },
    };
  }

  refusedAsFull(error: unknown): boolean {
    return error instanceof Error && error.message === NACKED;
  }

  /** Waits until the channel is set up (topology declared); used at bootstrap and by tests. */
  ready(): Promise<void> {
    return this.channel.waitForConnect();
  }

  async close(): Promise<void> {
    this.replies.releaseAll();
    await this.channel.close();
  }

  /** Pending sync requests (for metrics and tests). */
  get waitingReplies(): number {
    return this.replies.size;
  }

  private onReply(msg: ConsumeMessage | null): void {
    if (!msg) return;
    const body = decodeJson(gradingReplySchema, msg.content);
    const correlationId = msg.properties.correlationId as string | undefined;
    if (!body || !correlationId || !this.replies.waitingFor(correlationId)) return;
    if (body.production) this.repliedProductions.set(correlationId, body.production);
    this.replies.settle(correlationId);
  }

  private async isFinal(productionId: number): Promise<boolean> {
    const production = await this.productions.findById(productionId);
    return !production || production.status === 'graded' || production.status === 'failed';
  }
}

export type RabbitMqDispatchOptions = RabbitMqTransportOptions & QueueDispatchOptions;

/** GradingDispatch over RabbitMQ: the queue dispatch's steps over this transport. */
export function rabbitMqDispatch(
  connection: RabbitMqConnection,
  productions: ProductionRepository,
  archives: ArchiveStore,
  options: RabbitMqDispatchOptions,
): QueueDispatch<RabbitMqTransport> {
  return new QueueDispatch(new RabbitMqTransport(connection, productions, options), productions, archives, options);
}
