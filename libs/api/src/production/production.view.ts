import type { ProductionBody, SubmissionGradedBody, SubmissionQueuedBody } from '@shellgrade/api-contract';
import type { ExerciseProduction } from '@shellgrade/domain';
import type { QueueWait } from '@shellgrade/refusal';
import { isoTime } from '../admin/iso-time';

/** The production as the original SPA reads it (snake_case ids). */
export function productionView(p: ExerciseProduction): ProductionBody {
  return {
    ep_id: p.id,
    ex_id: p.exerciseId,
    ps_id: p.statementId,
    user_id: p.userId,
    status: p.status,
    grade: p.grade,
    comment: p.comment,
    failure_reason: p.failureReason,
    archive_size: p.archiveSize,
    archive_sha256: p.archiveSha256,
    created_at: isoTime(p.createdAt),
    graded_at: isoTime(p.gradedAt),
  };
}

/** The answer (201) to a submission graded before the reply. */
export function submissionGradedView(p: ExerciseProduction): SubmissionGradedBody {
  return { ep_id: p.id, ex_id: p.exerciseId, grade: p.grade, comment: p.comment };
}

/** The answer (202) to a submission graded later: how many wait ahead and about how long (when known). */
export function submissionQueuedView(p: ExerciseProduction, wait: QueueWait | null): SubmissionQueuedBody {
  return { ep_id: p.id, status: p.status, ...(wait ? { queued_ahead: wait.ahead, estimated_wait_s: wait.estimatedWaitS } : {}) };
}
