/**
 * Broker tunables of the BullMQ dispatch, read from the environment next to the runtime
 * config (the variant spec sets them; defaults suit a developer's loopback run).
 */
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const bullMqConfigSchema = z.object({
  /** Queue name (BullMQ forbids ':'); Redis keys are `sg:<queue>:*`. */
  SG_BROKER_QUEUE: z.string().regex(/^[^:]+$/).default('sg-grading'),
  /** Worker concurrency: the grading concurrency of one replica. */
  SG_BROKER_PREFETCH: z.coerce.number().int().min(1).default(4),
  /** Jobs allowed to wait (waiting + delayed retries); beyond it a submission is refused → 503. */
  SG_BROKER_QUEUE_BOUND: z.coerce.number().int().min(1).default(1000),
  /** Retries after the first attempt (job attempts = retries + 1). */
  SG_BROKER_RETRIES: z.coerce.number().int().min(0).default(3),
  /** Base of the exponential backoff between attempts. */
  SG_BROKER_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(500),
  /** How long a sync SPS waits for its job before answering with the production as it stands (202). */
  SG_BROKER_REPLY_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long an enqueue may wait for Redis (reconnection included) before the submission is refused. */
  SG_BROKER_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Retry-After (seconds) of the 503 answered when the queue is full or Redis is down. */
  SG_BROKER_RETRY_AFTER_S: z.coerce.number().int().min(1).default(5),
  /** Job lock; renewed every half of it by the worker (grading runs in a child process). */
  SG_BROKER_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** How often workers look for jobs whose lock expired (their worker died). */
  SG_BROKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Stalls (worker deaths mid-job) a job survives before it is failed. */
  SG_BROKER_MAX_STALLED: z.coerce.number().int().min(1).default(2),
  /** Finished jobs kept in Redis (bounded retention). */
  SG_BROKER_KEEP_COMPLETED: z.coerce.number().int().min(0).default(1_000),
  SG_BROKER_KEEP_FAILED: z.coerce.number().int().min(0).default(5_000),
  /** Whether this process runs a worker (every exercise replica does by default). */
  SG_BROKER_CONSUME: bool.default(true),
});

export type BullMqConfig = z.infer<typeof bullMqConfigSchema>;

export function loadBullMqConfig(env: NodeJS.ProcessEnv = process.env): BullMqConfig {
  // SG_BROKER_MAX_QUEUE: older name of SG_BROKER_QUEUE_BOUND, still accepted.
  const parsed = bullMqConfigSchema.safeParse({ SG_BROKER_QUEUE_BOUND: env.SG_BROKER_MAX_QUEUE, ...env });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid BullMQ broker configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** BullMQ renews job locks on the event loop: a grader that blocks it would make every job "stalled". */
export function assertGraderExecAllowed(exec: string): void {
  if (exec === 'blocking') {
    throw new Error(
      'SG_DISPATCH=bullmq refuses SG_GRADER_EXEC=blocking: a grading that blocks the event loop stops BullMQ ' +
        'from renewing job locks, so running jobs would be declared stalled and graded twice. Use async or pool.',
    );
  }
}
