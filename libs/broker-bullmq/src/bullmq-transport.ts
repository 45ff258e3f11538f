/**
 * The BullMQ side of a queue dispatch (QueueTransport, @shellgrade/broker-queue): the queue's
 * bound counted by the publisher before it adds (waiting, prioritized and delayed jobs; Redis has
 * no bound of its own), job `production-<id>` added with the message and the trace headers in its
 * data (the job id dedups a second add), and a `sync` requester waiting for the job to finish on
 * the queue events. Every Redis command is bounded by the publish timeout.
 */
import type { ArchiveStore, ProductionRepository } from '@shellgrade/domain';
import { messageIdOf, within, type GradingMessage } from '@shellgrade/dispatch';
import { QueueDispatch, type PublishedGrading, type QueueDispatchOptions, type QueueTransport } from '@shellgrade/broker-queue';
import type { MessageHeaders } from '@shellgrade/telemetry';
import type { BullMqConnection } from './bullmq-connection';
import type { GradingJobData } from './bullmq-consumer';

export const GRADING_JOB = 'grade';

export interface BullMqTransportOptions {
  /** Jobs waiting at most; one more submission is refused as queue-full. */
  maxWaiting: number;
  /** How long a Redis command may wait (ioredis would otherwise wait for a reconnection). */
  publishTimeoutMs: number;
}

class Timeout extends Error {}

export class BullMqTransport implements QueueTransport {
  readonly system = 'bullmq';
  readonly queue: string;

  constructor(
    private readonly connection: BullMqConnection,
    private readonly options: BullMqTransportOptions,
  ) {
    this.queue = connection.queueName;
  }

  async full(): Promise<boolean> {
    // Waiting jobs and retries waiting for their backoff; active ones are bounded by worker concurrency.
    const waiting = await this.bounded(this.connection.queue.getJobCountByTypes('waiting', 'prioritized', 'delayed'));
    return waiting >= this.options.maxWaiting;
  }

  async publish(message: GradingMessage, headers: MessageHeaders, replyBy: number | undefined): Promise<PublishedGrading> {
    const data: GradingJobData = { ...message, headers };
    const job = await this.bounded(this.connection.queue.add(GRADING_JOB, data, { jobId: messageIdOf(message.productionId) }));
    return {
      outcome: async () => {
        // Rejects when the job failed for good (the production is then final) or on timeout (still queued).
        const waitMs = replyBy === undefined ? 0 : replyBy - Date.now();
        if (waitMs > 0) await job.waitUntilFinished(this.connection.events, waitMs).catch(() => undefined);
        return undefined; // the job's result names the production; its row is read back
      },
    };
  }

  /** Nothing is refused at the add: the bound was counted before (full). */
  refusedAsFull(): boolean {
    return false;
  }

  /** A Redis command bounded by the publish timeout. */
  private bounded<T>(command: Promise<T>): Promise<T> {
    const ms = this.options.publishTimeoutMs;
    return within(command, ms, () => new Timeout(`no answer from Redis within ${ms} ms`));
  }
}

export type BullMqDispatchOptions = BullMqTransportOptions & QueueDispatchOptions;

/** GradingDispatch over BullMQ: the queue dispatch's steps over this transport. */
export function bullMqDispatch(
  connection: BullMqConnection,
  productions: ProductionRepository,
  archives: ArchiveStore,
  options: BullMqDispatchOptions,
): QueueDispatch<BullMqTransport> {
  return new QueueDispatch(new BullMqTransport(connection, options), productions, archives, options);
}
