/**
 * The wait a student is told: a queued submission's 202 says how many are ahead
 * and about how long that is; a submission refused because the queue is full is told to come
 * back when the backlog ahead should have drained (Retry-After), not after a fixed guess.
 * wait ≈ productions ahead ÷ gradings finished per second lately (across every process).
 */
import type { GradingBacklog } from '@shellgrade/domain';

export interface QueueWait {
  /** Productions not yet final submitted before this one. */
  ahead: number;
  /** Seconds until they should be graded; null before any grading finished lately. */
  estimatedWaitS: number | null;
}

/** Longest Retry-After ever asked: beyond it the estimate says more about the past than the future. */
export const MAX_RETRY_AFTER_S = 120;

/** The backlog ahead of `productionId`, or null when it cannot be read (an estimate must never fail a submission). */
export async function queueWaitOf(backlog: GradingBacklog | undefined, productionId: number): Promise<QueueWait | null> {
  if (!backlog) return null;
  try {
    const { ahead, finishedPerS } = await backlog.ahead(productionId);
    return { ahead, estimatedWaitS: finishedPerS ? Math.round((10 * ahead) / finishedPerS) / 10 : null };
  } catch {
    return null;
  }
}

/** Retry-After for a refusal: an estimated wait in whole seconds (1..MAX_RETRY_AFTER_S), else the spec's fallback. */
export function retryAfterSeconds(estimatedWaitS: number | null | undefined, fallbackS: number): number {
  return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(estimatedWaitS ?? fallbackS)));
}
