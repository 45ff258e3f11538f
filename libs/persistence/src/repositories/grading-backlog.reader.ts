import type { GradingBacklog } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, prepared } from '../queryable';

/** Over this window the finishing rate is measured: long enough to smooth a slow grading, short enough to follow a change of load. */
export const FINISHED_WINDOW_S = 60;

/** Sent with every queued submission's answer (async replies). */
const AHEAD = prepared(`SELECT (SELECT count(*) FROM exercise_productions
                WHERE graded_at IS NULL AND status NOT IN ('graded', 'failed') AND id < $1) AS ahead,
              (SELECT count(*) FROM exercise_productions
                WHERE graded_at IS NOT NULL AND graded_at > now() - make_interval(secs => $2)) AS finished`);

/**
 * The grading backlog as the productions table has it, across every process and broker: the
 * productions not yet final submitted before one (the partial "pending" index: graded_at not set),
 * and the gradings finished in the last minute (the "finished" index on graded_at).
 */
export class PgGradingBacklog implements GradingBacklog {
  constructor(private readonly pool: Pool) {}

  async ahead(productionId: number): Promise<{ ahead: number; finishedPerS: number | null }> {
    const row = await one<{ ahead: string; finished: string }>(this.pool, AHEAD, [productionId, FINISHED_WINDOW_S]);
    const finished = Number(row?.finished ?? 0);
    return { ahead: Number(row?.ahead ?? 0), finishedPerS: finished > 0 ? finished / FINISHED_WINDOW_S : null };
  }
}
