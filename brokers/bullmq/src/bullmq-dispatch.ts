/**
 * GradingDispatch over BullMQ: marks the production queued, refuses it (503) when too many
 * jobs wait, adds job `production-<id>` (the job id dedups redeliveries), and for `sync`
 * replies waits for the job to finish (QueueEvents) up to a timeout, after which the SPS
 * answers with the production as it stands (202 while queued); the job still completes.
 */
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
import type { BullMqConnection } from './bullmq-connection';
import { messageIdOf, replyWaitMs, within } from '@shellgrade/dispatch';
import { queueWaitOf, refuseSubmission } from '@shellgrade/refusal';
import type { GradingJobData } from './bullmq-consumer';

export const GRADING_JOB = 'grade';

export interface BullMqDispatchOptions {
  reply: 'sync' | 'async';
  maxWaiting: number;
  replyTimeoutMs: number;
  publishTimeoutMs: number;
  retryAfterSeconds: number;
  /** The backlog a queue-full refusal tells the student about (its Retry-After: when it should have drained). */
  backlog?: GradingBacklog;
  /** How long after its arrival a client still waits for the answer: the job's deadline (unset: none). */
  answerBudgetMs?: number;
}

class Timeout extends Error {}

export class BullMqDispatch implements GradingDispatch {
  /** What it is handed is published to a queue: created 'queued' when stored whole (GradingDispatch.queues). */
  readonly queues = true;
  constructor(
    private readonly connection: BullMqConnection,
    private readonly productions: ProductionRepository,
    private readonly archives: ArchiveStore,
    private readonly options: BullMqDispatchOptions,
  ) {}

  async dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    const { productionId } = req;
    const { queue, events, queueName } = this.connection;
    // Created queued when its archive came with the row (GradingDispatch.queues): no second write.
    if (req.production?.status !== 'queued') await this.productions.setStatus(productionId, 'queued');
    const refuse = async (cause: 'queue-full' | 'broker-unavailable', error?: unknown) =>
      refuseSubmission(cause, productionId, { productions: this.productions, archives: this.archives }, {
        broker: 'bullmq',
        queue: queueName,
        retryAfterSeconds: this.options.retryAfterSeconds,
        error,
        wait: cause === 'queue-full' ? await queueWaitOf(this.options.backlog, productionId) : null,
      });

    let job;
    try {
      // Waiting jobs and retries waiting for their backoff; active ones are bounded by worker concurrency.
      const waiting = await this.bounded(queue.getJobCountByTypes('waiting', 'prioritized', 'delayed'));
      if (waiting >= this.options.maxWaiting) throw await refuse('queue-full');
      job = await tracedPublish({ system: 'bullmq', queue: queueName }, (headers) => {
        const data: GradingJobData = { productionId, deadline: answerDeadlineOf(req.receivedAt, this.options.answerBudgetMs), headers };
        return this.bounded(queue.add(GRADING_JOB, data, { jobId: messageIdOf(productionId) }));
      });
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw await refuse('broker-unavailable', error);
    }

    if (this.options.reply === 'sync') {
      // Rejects when the job failed for good (the production is then final) or on timeout (still queued).
      const waitMs = replyWaitMs(this.options.replyTimeoutMs, req.receivedAt);
      if (waitMs > 0) await job.waitUntilFinished(events, waitMs).catch(() => undefined);
    }
    const production = await this.productions.findById(productionId);
    if (!production) throw new DomainError('not-found', `production ${productionId} vanished after dispatch`);
    return production;
  }

  /** A Redis command bounded by the publish timeout (ioredis would otherwise wait for a reconnection). */
  private bounded<T>(command: Promise<T>): Promise<T> {
    const ms = this.options.publishTimeoutMs;
    return within(command, ms, () => new Timeout(`no answer from Redis within ${ms} ms`));
  }
}
