/**
 * Broker tunables of the BullMQ dispatch: the shared SG_BROKER_* ones (prefetch = worker
 * concurrency; the bound counts waiting + delayed jobs; attempts = retries + 1), the queue
 * name and BullMQ's lock, stalled-job and retention settings.
 */
import { z } from 'zod';
import { brokerTunables, loadBrokerConfig } from '@shellgrade/dispatch';

export const bullMqConfigSchema = z.object({
  /** Queue name (BullMQ forbids ':'); Redis keys are `sg:<queue>:*`. */
  SG_BROKER_QUEUE: z.string().regex(/^[^:]+$/).default('sg-grading'),
  ...brokerTunables,
  /** Job lock; renewed every half of it by the worker (grading runs in a child process). */
  SG_BROKER_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** How often workers look for jobs whose lock expired (their worker died). */
  SG_BROKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Stalls (worker deaths mid-job) a job survives before it is failed. */
  SG_BROKER_MAX_STALLED: z.coerce.number().int().min(1).default(2),
  /** Finished jobs kept in Redis (bounded retention). */
  SG_BROKER_KEEP_COMPLETED: z.coerce.number().int().min(0).default(1_000),
  SG_BROKER_KEEP_FAILED: z.coerce.number().int().min(0).default(5_000),
});

export type BullMqConfig = z.infer<typeof bullMqConfigSchema>;

export function loadBullMqConfig(env: NodeJS.ProcessEnv = process.env): BullMqConfig {
  return loadBrokerConfig(bullMqConfigSchema, 'BullMQ', env);
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
