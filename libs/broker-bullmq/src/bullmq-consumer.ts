/**
 * The grading side of the BullMQ dispatch: every exercise replica runs a Worker
 * (concurrency = its grading concurrency). A job completes only after GradingWorker stored
 * the outcome; GradingWorker is idempotent, so a job retried or recovered from a stalled
 * worker does not regrade a final production. A job that keeps throwing is retried with
 * exponential backoff; on its last attempt the production is marked failed with the reason
 * and the job lands in the failed set (the dead letters). Jobs failed by BullMQ itself
 * (stalled too often after worker deaths) are marked failed from the queue events, and
 * once more by a sweep of the failed set at start-up (events are not durable).
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { DomainError, type GradingWorker, type ProductionRepository } from '@shellgrade/domain';
import { gradingMessageSchema, productionIdOfMessageId, type GradingMessage } from '@shellgrade/dispatch';
import { ATTR, tracedConsume } from '@shellgrade/telemetry';
import { BULLMQ_PREFIX, type BullMqConnection } from './bullmq-connection';

/** A BullMQ job's data: the grading message, with the trace headers beside it (AMQP carries them as message headers). */
export interface GradingJobData extends GradingMessage {
  /** W3C trace context and publish time (x-sg-published-at). */
  headers: Record<string, string>;
}

export interface GradingJobResult {
  productionId: number;
  status: string;
}

export interface BullMqConsumerOptions {
  concurrency: number;
  lockMs: number;
  stalledIntervalMs: number;
  maxStalled: number;
  /** Jobs of the failed set inspected at start-up (= its retention). */
  sweepFailed: number;
  log?: (line: string) => void;
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export class BullMqConsumer {
  readonly worker: Worker<GradingJobData, GradingJobResult>;
  readonly stats = { completed: 0, retried: 0, failedForGood: 0, markedFailedFromEvents: 0 };
  private readonly log: (line: string) => void;
  private readonly onFailedEvent = (args: { jobId: string; failedReason: string }) => void this.markFailed(args.jobId, args.failedReason);

  constructor(
    private readonly connection: BullMqConnection,
    private readonly grading: GradingWorker,
    private readonly productions: ProductionRepository,
    private readonly options: BullMqConsumerOptions,
  ) {
    this.log = options.log ?? ((line) => console.warn(line));
    this.worker = new Worker<GradingJobData, GradingJobResult>(connection.queueName, (job) => this.process(job), {
      connection: connection.redis,
      prefix: BULLMQ_PREFIX,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: options.maxStalled,
      autorun: true,
    });
    this.worker.on('error', (err) => this.log(`bullmq worker: ${err.message}`));
    connection.events.on('failed', this.onFailedEvent);
  }

  async ready(): Promise<void> {
    await this.worker.waitUntilReady();
    void this.sweepFailedSet();
  }

  /** Stops fetching jobs and waits for the active ones (BullMQ's graceful close). */
  async close(): Promise<void> {
    this.connection.events.off('failed', this.onFailedEvent);
    await this.worker.close();
  }

  private async process(job: Job<GradingJobData, GradingJobResult>): Promise<GradingJobResult> {
    const message = gradingMessageSchema.safeParse(job.data);
    if (!message.success) throw new UnrecoverableError('malformed job: no productionId');
    const { productionId, deadline } = message.data;
    try {
      const production = await tracedConsume({ system: 'bullmq', queue: job.queueName }, job.data.headers, (span) => {
        span.setAttribute(ATTR.productionId, productionId);
        span.setAttribute('messaging.bullmq.attempts_made', job.attemptsMade);
        return this.grading.grade(productionId, { deadline });
      });
      this.stats.completed++;
      return { productionId, status: production.status };
    } catch (error) {
      // The production was deleted (refused enqueue, reset between runs): nothing to grade.
      if (error instanceof DomainError && error.kind === 'not-found') return { productionId, status: 'deleted' };
      const attempt = job.attemptsMade + 1;
      const allowed = job.opts.attempts ?? 1;
      if (attempt >= allowed) {
        const reason = `grading-failed: gave up after ${attempt} attempts, last error ${describe(error)}`;
        this.stats.failedForGood++;
        this.log(`bullmq: production ${productionId} moved to the failed set (${reason})`);
        await this.productions.complete(productionId, { failureReason: reason }).catch(() => undefined);
      } else {
        this.stats.retried++;
        this.log(`bullmq: production ${productionId} attempt ${attempt}/${allowed} failed (${describe(error)}); retrying`);
      }
      throw error;
    }
  }

  /** A job failed for good: make sure its production is final (no-op when the processor did it). */
  private async markFailed(jobId: string, failedReason: string): Promise<void> {
    const productionId = productionIdOfMessageId(jobId);
    if (productionId === null) return;
    try {
      const marked = await this.productions.complete(productionId, { failureReason: `grading-failed: ${failedReason}` });
      if (marked) this.stats.markedFailedFromEvents++;
    } catch (error) {
      this.log(`bullmq: failed job ${jobId} not recorded yet (${describe(error)}); the next start-up sweep will`);
    }
  }

  private async sweepFailedSet(): Promise<void> {
    try {
      const jobs = await this.connection.queue.getFailed(0, Math.max(0, this.options.sweepFailed - 1));
      for (const job of jobs) if (job?.id) await this.markFailed(job.id, job.failedReason ?? 'failed');
    } catch (error) {
      this.log(`bullmq: failed-set sweep skipped (${describe(error)})`);
    }
  }
}
