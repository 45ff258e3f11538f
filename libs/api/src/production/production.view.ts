import type { ExerciseProduction } from '@shellgrade/domain';

/** The production as the original SPA reads it (snake_case ids). */
export function productionView(p: ExerciseProduction) {
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
    created_at: p.createdAt,
    graded_at: p.gradedAt,
  };
}
