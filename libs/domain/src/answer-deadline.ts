/**
 * The answer deadline of a submission: the moment its client stops waiting for the feedback
 * (its timeout, counted from when the request entered the system). A grading that would start
 * later is not started — its answer could reach no one, and the sandbox time it would take is
 * what the students still waiting need under overload. The production ends failed with a
 * reason that starts `expired:` (final, counted by the audit; never lost). Every hand-over
 * applies it: the submission (a retry after an expired attempt), each dispatch (the deadline
 * it carries), the grading worker and the pipeline's filters (checked before the sandbox).
 */
import type { ProductionOutcome } from './ports';

/** The prefix of an expired production's failure reason. */
export const EXPIRED = 'expired';

/** When the answer to a request received at `receivedAt` is due; undefined: no deadline (unknown arrival, or none configured). */
export function answerDeadlineOf(receivedAt: number | undefined, budgetMs: number | undefined): number | undefined {
  if (receivedAt === undefined || !Number.isFinite(receivedAt) || budgetMs === undefined) return undefined;
  return receivedAt + budgetMs;
}

/** The outcome of a grading that must not start any more (`now` at or past `deadline`), else null. */
export function expiredOutcome(deadline: number | undefined, now: number): ProductionOutcome | null {
  if (deadline === undefined || now < deadline) return null;
  const late = Math.round((now - deadline) / 100) / 10;
  return { failureReason: `${EXPIRED}: not graded, its client had stopped waiting for the answer ${late} s before a grader was free (deadline ${new Date(deadline).toISOString()})` };
}

/** Whether a final production failed because its answer deadline passed before its grading could start. */
export function isExpired(production: { status: string; failureReason: string | null }): boolean {
  return production.status === 'failed' && (production.failureReason?.startsWith(`${EXPIRED}:`) ?? false);
}
