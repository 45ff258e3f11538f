/**
 * GradingDispatch over RabbitMQ: marks the production queued, publishes {productionId}
 * with publisher confirms, and for `sync` replies waits for the consumer's reply on
 * direct reply-to (correlation id) up to a timeout, after which the SPS answers with the
 * production as it stands (202 while queued) and the job still completes.
 */
import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { ChannelWrapper } from 'amqp-connection-manager';
import {
  answerDeadlineOf,
  DomainError,
  type ArchiveStore,
  type ExerciseProduction,
  type GradingBacklog,
  type GradingDispatch,
  type GradingRequest,
  type ProductionRepository,
} from '@shellgrade/domain';
import { tracedPublish } from '@shellgrade/telemetry';
import type { RabbitMqConnection } from './rabbitmq-connection';
import { messageIdOf, replyWaitMs, type GradingMessage } from '@shellgrade/dispatch';
import { queueWaitOf, refuseSubmission } from '@shellgrade/refusal';
import { decodeJson, encodeJson, gradingReplySchema } from './grading-reply';

export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';
/** amqplib's error for a publish the broker nacked (here: x-overflow reject-publish). */
const NACKED = 'message nacked';
/** How often a sync request whose reply channel was replaced re-reads its production. */
const RECONNECT_POLL_MS = 500;

export interface RabbitMqDispatchOptions {
  queue: string;
  reply: 'sync' | 'async';
  replyTimeoutMs: number;
  publishTimeoutMs: number;
  retryAfterSeconds: number;
  /** The backlog a queue-full refusal tells the student about (its Retry-After: when it should have drained). */
  backlog?: GradingBacklog;
  /** How long after its arrival a client still waits for the answer: the message's deadline (unset: none). */
  answerBudgetMs?: number;
}

export class RabbitMqDispatch implements GradingDispatch {
  /** What it is handed is published to a queue: created 'queued' when stored whole (GradingDispatch.queues). */
  readonly queues = true;
  private readonly channel: ChannelWrapper;
  private readonly replies = new PendingReplies();
  /** Productions carried by replies, by correlation id, until their requester takes them. */
  private readonly repliedProductions = new Map<string, ExerciseProduction>();
  private connections = 0;

  constructor(
    connection: RabbitMqConnection,
    private readonly productions: ProductionRepository,
    private readonly archives: ArchiveStore,
    private readonly options: RabbitMqDispatchOptions,
  ) {
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

  async dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    const { productionId } = req;
    // Created queued when its archive came with the row (GradingDispatch.queues): no second write.
    if (req.production?.status !== 'queued') await this.productions.setStatus(productionId, 'queued');
    const correlationId = this.options.reply === 'sync' ? randomUUID() : undefined;
    const reply = correlationId ? this.replies.expect(correlationId, productionId, replyWaitMs(this.options.replyTimeoutMs, req.receivedAt)) : undefined;
    const message: GradingMessage = { productionId, deadline: answerDeadlineOf(req.receivedAt, this.options.answerBudgetMs) };
    try {
      await tracedPublish({ system: 'rabbitmq', queue: this.options.queue }, (headers) =>
        this.channel.sendToQueue(this.options.queue, encodeJson(message), {
          persistent: true,
          contentType: 'application/json',
          messageId: messageIdOf(productionId),
          timestamp: Math.floor(Date.now() / 1000),
          headers,
          ...(correlationId ? { correlationId, replyTo: DIRECT_REPLY_TO } : {}),
        }),
      );
    } catch (error) {
      reply?.cancel();
      const cause = error instanceof Error && error.message === NACKED ? 'queue-full' : 'broker-unavailable';
      throw await refuseSubmission(cause, productionId, { productions: this.productions, archives: this.archives }, {
        broker: 'rabbitmq',
        queue: this.options.queue,
        retryAfterSeconds: this.options.retryAfterSeconds,
        error,
        wait: cause === 'queue-full' ? await queueWaitOf(this.options.backlog, productionId) : null,
      });
    }
    if (reply) await reply.done;
    // The reply carries the production as the worker stored it: no read back (one round trip less).
    const replied = correlationId ? this.repliedProductions.get(correlationId) : undefined;
    if (correlationId) this.repliedProductions.delete(correlationId);
    return replied ?? this.current(productionId);
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

  private async current(productionId: number): Promise<ExerciseProduction> {
    const production = await this.productions.findById(productionId);
    if (!production) throw new DomainError('not-found', `production ${productionId} vanished after dispatch`);
    return production;
  }
}

/**
 * Sync requests waiting for their reply, by correlation id; each one resolves once.
 * Direct reply-to lives on one channel: after a reconnection the replies addressed to the
 * old channel are dropped by the broker, so the waiters left from before it fall back to
 * polling their production until it is final (or their timeout passes).
 */
interface Waiter {
  productionId: number;
  resolve: (replied: boolean) => void;
  timer: NodeJS.Timeout;
  polling?: NodeJS.Timeout;
}

export class PendingReplies {
  private readonly waiting = new Map<string, Waiter>();

  /** Resolves true when the reply arrives (or the production is seen final), false on timeout. */
  expect(correlationId: string, productionId: number, timeoutMs: number): { done: Promise<boolean>; cancel: () => void } {
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.settle(correlationId, false), timeoutMs);
      this.waiting.set(correlationId, { productionId, resolve, timer });
    });
    return { done, cancel: () => this.settle(correlationId, false) };
  }

  /** Called for every reply; unknown ids (late replies after a timeout) are ignored. */
  settle(correlationId: string, replied = true): void {
    const entry = this.waiting.get(correlationId);
    if (!entry) return;
    this.waiting.delete(correlationId);
    clearTimeout(entry.timer);
    clearInterval(entry.polling);
    entry.resolve(replied);
  }

  /** The reply channel was replaced: current waiters poll `isFinal` every `everyMs` instead. */
  pollAfterReconnect(isFinal: (productionId: number) => Promise<boolean>, everyMs: number): void {
    for (const [id, entry] of this.waiting) {
      if (entry.polling) continue;
      entry.polling = setInterval(() => {
        isFinal(entry.productionId).then(
          (final) => final && this.settle(id),
          () => undefined,
        );
      }, everyMs);
    }
  }

  /** Releases every waiter (shutdown): they answer with the production as it stands. */
  releaseAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, false);
  }

  /** Whether a requester still waits for this reply (a late one, after its timeout, is dropped). */
  waitingFor(correlationId: string): boolean {
    return this.waiting.has(correlationId);
  }

  get size(): number {
    return this.waiting.size;
  }
}
