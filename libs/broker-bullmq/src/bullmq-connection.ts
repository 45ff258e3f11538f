/**
 * The Redis side of the BullMQ dispatch in one process: one shared ioredis connection
 * (queue commands; BullMQ duplicates it for the worker's and QueueEvents' blocking reads),
 * the queue with its default job options, and the queue-events stream used for sync
 * replies and for noticing jobs that failed for good.
 */
import { Queue, QueueEvents, type DefaultJobOptions } from 'bullmq';
import { Redis } from 'ioredis';

export const BULLMQ_PREFIX = 'sg';

export interface BullMqConnectionOptions {
  url: string;
  queue: string;
  retries: number;
  retryDelayMs: number;
  keepCompleted: number;
  keepFailed: number;
  log?: (line: string) => void;
}

export class BullMqConnection {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly queueName: string;

  constructor(options: BullMqConnectionOptions) {
    const log = options.log ?? ((line: string) => console.warn(line));
    this.queueName = options.queue;
    // null: commands wait for the reconnection instead of failing (BullMQ requires it for workers);
    // the dispatch bounds that wait with its own publish timeout.
    this.redis = new Redis(options.url, {
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(200 * times, 2_000),
    });
    this.redis.on('error', () => undefined);
    const defaultJobOptions: DefaultJobOptions = {
      attempts: options.retries + 1,
      backoff: { type: 'exponential', delay: options.retryDelayMs },
      removeOnComplete: { count: options.keepCompleted },
      removeOnFail: { count: options.keepFailed },
    };
    this.queue = new Queue(options.queue, { connection: this.redis, prefix: BULLMQ_PREFIX, defaultJobOptions });
    this.queue.on('error', (err) => log(`bullmq queue: ${err.message}`));
    // Each pending sync reply (job.waitUntilFinished) listens for the queue closing; they are bounded
    // by the queue bound, not by Node's default of 10 listeners.
    this.queue.setMaxListeners(0);
    this.events = new QueueEvents(options.queue, { connection: this.redis, prefix: BULLMQ_PREFIX });
    this.events.on('error', (err) => log(`bullmq events: ${err.message}`));
  }

  async ready(): Promise<void> {
    await this.queue.waitUntilReady();
    await this.events.waitUntilReady();
  }

  async close(): Promise<void> {
    await this.events.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
