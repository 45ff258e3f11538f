/**
 * What happens to a persisted production whose publish failed: the submission was not
 * accepted (503 + Retry-After), so it must not linger as a never-graded production.
 */
import { DomainError, type ArchiveStore, type ProductionRepository } from '@shellgrade/domain';
import { retryAfterSeconds, type QueueWait } from './queue-wait';

export type RefusalCause = 'queue-full' | 'broker-unavailable';

/**
 * queue-full: the broker refused the message for sure, so the production and its archive are
 * deleted (a client retry with the same submission key starts afresh).
 * broker-unavailable: the message may still reach the queue (unconfirmed publish), so the
 * production is made final ('failed'); a late delivery then finds it final and is acked as is.
 * `wait`: the backlog ahead (read before the production is deleted): a queue-full refusal says it
 * and asks the student back when it should have drained; without it, `retryAfterSeconds`.
 */
export async function refuseSubmission(
  cause: RefusalCause,
  productionId: number,
  deps: { productions: ProductionRepository; archives: ArchiveStore },
  info: { broker: string; queue: string; retryAfterSeconds: number; error?: unknown; wait?: QueueWait | null },
): Promise<DomainError> {
  const why = info.error instanceof Error ? info.error.message : String(info.error ?? '');
  if (cause === 'queue-full') {
    await deps.archives.delete(productionId).catch(() => undefined);
    await deps.productions.delete(productionId).catch(() => undefined);
    const wait = info.wait ?? null;
    const retryAfter = retryAfterSeconds(wait?.estimatedWaitS, info.retryAfterSeconds);
    const backlog = wait ? ` (${wait.ahead} submissions are waiting${wait.estimatedWaitS === null ? '' : `, about ${Math.ceil(wait.estimatedWaitS)} s of grading`})` : '';
    return new DomainError(
      'unavailable',
      `the grading queue is full${backlog}; your submission was not saved, submit it again in ${retryAfter} s`,
      { broker: info.broker, queue: info.queue, ...(wait ? { queued_ahead: wait.ahead, estimated_wait_s: wait.estimatedWaitS } : {}) },
      retryAfter,
    );
  }
  await deps.productions
    .complete(productionId, { failureReason: `unavailable: not queued, ${info.broker} did not confirm (${why})` })
    .catch(() => undefined);
  return new DomainError(
    'unavailable',
    `the grading broker is unavailable; the submission was not accepted, retry in ${info.retryAfterSeconds} s`,
    { broker: info.broker, queue: info.queue },
    info.retryAfterSeconds,
  );
}
