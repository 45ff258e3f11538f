/**
 * Consumes one work queue and its dead-letter queue, whatever the work: the single grading
 * worker (RabbitMqConsumer, at the end of this file) and each filter of dispatch: pipeline (pipeline-workers.ts)
 * are this with their own `handle`. A message is acked only once `handle` resolved (its
 * outcome stored, or passed on to the next queue with a publisher confirm). A message that
 * keeps failing is retried with a growing delay; on its last allowed delivery the production
 * is marked failed with the reason and the message is rejected into the dead-letter queue.
 * The dead-letter consumer also covers messages the broker dead-lettered itself (delivery
 * limit reached by consumers dying mid-job). Both tell a waiting sync requester.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Span } from '@opentelemetry/api';
import type { z } from 'zod';
import { DomainError, type ExerciseProduction, type GradingWorker, type ProductionRepository } from '@shellgrade/domain';
import { gradingMessageSchema, type GradingMessage } from '@shellgrade/dispatch';
import { ATTR, tracedConsume } from '@shellgrade/telemetry';
import type { RabbitMqConnection } from './rabbitmq-connection';
import type { Topology } from './topology';
import { encodeJson, decodeJson, replyOf, type GradingReply } from './grading-reply';

/** Where a forwarded message keeps the sync requester's reply address (direct reply-to names one channel). */
export const REPLY_TO_HEADER = 'x-sg-reply-to';

export interface QueueConsumerOptions {
  prefetch: number;
  /** Same value as the queue's x-delivery-limit: redeliveries allowed after the first attempt. */
  retries: number;
  retryDelayMs: number;
  /** At close, how long in-flight messages may still finish (spec: broker.rabbitmq.closeGraceMs). */
  closeGraceMs: number;
  /** Logs consumer failures (retries, dead letters); console by default. */
  log?: (line: string) => void;
}

/** What one consumer does with a decoded message: the final production to tell the requester, or null (passed on, or nothing to do). */
export interface QueueWork<T extends { productionId: number }> {
  /** Channel name (amqp-connection-manager), e.g. 'sg-consume'. */
  name: string;
  topology: Topology;
  schema: z.ZodType<T>;
  /** Named in a dead-letter reason, e.g. 'the grade filter'; unset for the single grading worker. */
  step?: string;
  handle(body: T, delivery: ConsumeMessage, span: Span): Promise<Pick<ExerciseProduction, 'id' | 'status'> | null>;
}

interface Subscription {
  channel: Channel;
  tags: string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Previous unsuccessful deliveries of a quorum-queue message (absent on the first one). */
export function deliveryCountOf(msg: ConsumeMessage): number {
  const raw = msg.properties.headers?.['x-delivery-count'];
  const n = typeof raw === 'number' ? raw : Number(raw ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The sync requester's address: on the first queue the message's own reply-to, further on the header a filter copied it to. */
export function replyAddressOf(msg: ConsumeMessage): { replyTo: string; correlationId: string } | null {
  const replyTo = (msg.properties.replyTo as string | undefined) ?? (msg.properties.headers?.[REPLY_TO_HEADER] as string | undefined);
  const correlationId = msg.properties.correlationId as string | undefined;
  return replyTo && correlationId ? { replyTo, correlationId } : null;
}

export class QueueConsumer<T extends { productionId: number }> {
  private readonly channel: ChannelWrapper;
  private subscription?: Subscription;
  private inFlight = 0;
  /** Counters since start, for metrics and tests. */
  readonly stats = { acked: 0, retried: 0, deadLettered: 0, deadLetterMarkedFailed: 0 };
  private stopping = false;
  private readonly log: (line: string) => void;

  constructor(
    connection: RabbitMqConnection,
    private readonly work: QueueWork<T>,
    private readonly productions: ProductionRepository,
    private readonly options: QueueConsumerOptions,
  ) {
    this.log = options.log ?? ((line) => console.warn(line));
    const { topology } = work;
    this.channel = connection.createChannel(
      {
        name: work.name,
        confirm: false,
        // Runs on every (re)connection: acks go to the very channel that delivered the message.
        setup: async (ch: Channel) => {
          await connection.assertTopologyOf(ch, topology);
          if (this.stopping) return;
          await ch.prefetch(options.prefetch);
          const workTag = await ch.consume(topology.work, (msg) => msg && void this.onWork(ch, msg));
          await ch.prefetch(1);
          const deadTag = await ch.consume(topology.deadLetter, (msg) => msg && void this.onDeadLetter(ch, msg));
          this.subscription = { channel: ch, tags: [workTag.consumerTag, deadTag.consumerTag] };
        },
      },
      this.log,
    );
  }

  ready(): Promise<void> {
    return this.channel.waitForConnect();
  }

  /** Messages being handled right now. */
  get busy(): number {
    return this.inFlight;
  }

  /** Stops taking messages, lets in-flight ones finish (up to closeGraceMs), closes the channel. */
  async close(): Promise<void> {
    this.stopping = true;
    const sub = this.subscription;
    if (sub) await Promise.all(sub.tags.map((tag) => sub.channel.cancel(tag).catch(() => undefined)));
    const deadline = Date.now() + this.options.closeGraceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await sleep(20);
    await this.channel.close();
  }

  private async onWork(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const body = decodeJson(this.work.schema, msg.content);
    if (!body) {
      this.log(`rabbitmq: malformed message ${msg.properties.messageId ?? '?'} on ${this.work.topology.work} dead-lettered`);
      settle(ch, msg, 'dead-letter');
      return;
    }
    const previous = deliveryCountOf(msg);
    this.inFlight++;
    try {
      const final = await tracedConsume({ system: 'rabbitmq', queue: this.work.topology.work }, msg.properties.headers, (span) => {
        span.setAttribute(ATTR.productionId, body.productionId);
        span.setAttribute('messaging.rabbitmq.delivery_count', previous);
        return this.work.handle(body, msg, span);
      });
      if (final) this.reply(ch, msg, replyOf(final));
      settle(ch, msg, 'ack');
      this.stats.acked++;
    } catch (error) {
      await this.onFailure(ch, msg, body.productionId, previous, error);
    } finally {
      this.inFlight--;
    }
  }

  private async onFailure(ch: Channel, msg: ConsumeMessage, productionId: number, previous: number, error: unknown) {
    if (error instanceof DomainError && error.kind === 'not-found') {
      // The production was deleted (refused publish, reset between runs): nothing to grade.
      settle(ch, msg, 'ack');
      return;
    }
    const attempt = previous + 1;
    if (previous >= this.options.retries) {
      const where = this.work.step ? ` in ${this.work.step}` : '';
      const reason = `grading-failed: gave up after ${attempt} attempts${where}, last error ${describe(error)}`;
      this.log(`rabbitmq: production ${productionId} dead-lettered (${reason})`);
      await this.productions.complete(productionId, { failureReason: reason }).catch(() => undefined);
      this.reply(ch, msg, { productionId, status: 'failed' });
      settle(ch, msg, 'dead-letter');
      return;
    }
    this.log(`rabbitmq: production ${productionId} attempt ${attempt} failed (${describe(error)}); retrying`);
    await sleep(this.options.retryDelayMs * 2 ** previous);
    settle(ch, msg, 'requeue');
    this.stats.retried++;
  }

  /** Marks the production of a dead-lettered message failed (if nothing did) and drops the message. */
  private async onDeadLetter(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const body = decodeJson(this.work.schema, msg.content);
    if (!body) {
      settle(ch, msg, 'ack');
      return;
    }
    const headers = msg.properties.headers ?? {};
    const why = String(headers['x-first-death-reason'] ?? 'dead-lettered');
    const where = this.work.step ? ` in ${this.work.step}` : '';
    this.inFlight++;
    try {
      const marked = await this.productions.complete(body.productionId, {
        failureReason: `grading-failed: dead-lettered${where} (${why}) after ${deliveryCountOf(msg) + 1} deliveries`,
      });
      this.stats.deadLettered++;
      if (marked) this.stats.deadLetterMarkedFailed++;
      if (marked) this.log(`rabbitmq: production ${body.productionId} marked failed from the dead-letter queue`);
      this.reply(ch, msg, { productionId: body.productionId, status: 'failed' });
      settle(ch, msg, 'ack');
    } catch (error) {
      this.log(`rabbitmq: dead letter of production ${body.productionId} not recorded yet (${describe(error)})`);
      await sleep(this.options.retryDelayMs * 4);
      settle(ch, msg, 'requeue');
    } finally {
      this.inFlight--;
    }
  }

  /** Tells a sync requester that the outcome is stored (with the production when the reply carries it). */
  private reply(ch: Channel, msg: ConsumeMessage, reply: GradingReply) {
    const address = replyAddressOf(msg);
    if (!address) return;
    try {
      ch.sendToQueue(address.replyTo, encodeJson(reply), { correlationId: address.correlationId, contentType: 'application/json' });
    } catch {
      // Channel gone (broker restart): the requester times out and reads the production itself.
    }
  }
}

/** Acks/rejects on the delivering channel; after a reconnection the broker has already requeued it. */
function settle(ch: Channel, msg: ConsumeMessage, how: 'ack' | 'requeue' | 'dead-letter'): void {
  try {
    if (how === 'ack') ch.ack(msg);
    else ch.nack(msg, false, how === 'requeue');
  } catch {
    // IllegalOperationError: channel closed; the message is redelivered to a live consumer.
  }
}

/**
 * The grading side of dispatch: rabbitmq: every exercise replica consumes the work queue
 * (prefetch = its grading concurrency) with the one GradingWorker doing the whole grading per
 * message. GradingWorker is idempotent, so a redelivery of a graded production is acked
 * without regrading, and one whose answer deadline passed while it was queued ends expired
 * without a sandbox. Retries, dead-lettering and the sync reply are QueueConsumer's.
 */
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
