import type {
  ExerciseProduction,
  NewProduction,
  ProductionFilter,
  ProductionListing,
  ProductionOutcome,
  ProductionRepository,
} from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, prepared, run } from '../queryable';
import { PRODUCTION_COLUMNS, type ProductionRow, toProduction } from '../rows';

// What every submission sends (create, the status on its way to the grader, the outcome) and its reads by id.
const CREATE = prepared(`INSERT INTO exercise_productions
         (user_id, exercise_id, statement_id, status, submission_key, archive_size, archive_sha256, archive)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (submission_key) DO NOTHING
       RETURNING ${PRODUCTION_COLUMNS}`);
const BY_KEY = prepared(`SELECT ${PRODUCTION_COLUMNS} FROM exercise_productions WHERE submission_key = $1`);
const BY_ID = prepared(`SELECT ${PRODUCTION_COLUMNS} FROM exercise_productions WHERE id = $1`);
const SET_STATUS = prepared(`UPDATE exercise_productions SET status = $2 WHERE id = $1 AND status NOT IN ('graded', 'failed')`);
const COMPLETE = prepared(`UPDATE exercise_productions
          SET status = $2, grade = $3, comment = $4::jsonb, failure_reason = $5, graded_at = now()
        WHERE id = $1 AND status NOT IN ('graded', 'failed')
        RETURNING ${PRODUCTION_COLUMNS}`);

export type { ProductionFilter } from '@shellgrade/domain';

export class PgProductionRepository implements ProductionRepository, ProductionListing {
  constructor(private readonly pool: Pool) {}

  /**
   * Idempotent on submissionKey: a redelivered create returns the first production. With
   * `archive`, the bytes go into the row in the same statement (postgres archive storage).
   */
  async create(p: NewProduction): Promise<{ production: ExerciseProduction; created: boolean }> {
    const inserted = await one<ProductionRow>(this.pool, CREATE, [
      p.userId,
      p.exerciseId,
      p.statementId,
      p.status,
      p.submissionKey,
      p.archiveSize,
      p.archiveSha256,
      p.archive ?? null,
    ]);
    if (inserted) return { production: toProduction(inserted), created: true };
    const existing = await one<ProductionRow>(this.pool, BY_KEY, [p.submissionKey]);
    // Only possible if the conflicting row was deleted between the two statements (reset).
    if (!existing) return this.create(p);
    return { production: toProduction(existing), created: false };
  }

  async findById(id: number): Promise<ExerciseProduction | null> {
    const row = await one<ProductionRow>(this.pool, BY_ID, [id]);
    return row && toProduction(row);
  }

  async setStatus(id: number, status: 'queued' | 'grading'): Promise<void> {
    await run(this.pool, SET_STATUS, [id, status]);
  }

  async reclaimInterrupted(olderThanMs: number, limit: number): Promise<number[]> {
    // SKIP LOCKED: two replicas sweeping at once never claim the same row. graded_at IS NULL: the pending index.
    const { rows } = await this.pool.query<{ id: number }>(
      `UPDATE exercise_productions SET status = 'queued'
        WHERE id IN (SELECT id FROM exercise_productions
                      WHERE graded_at IS NULL AND status IN ('received', 'grading')
                        AND created_at < now() - make_interval(secs => $1::float8 / 1000)
                      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [olderThanMs, limit],
    );
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  /** Moves a non-final production to graded/failed exactly once and returns it; null if it was already final. */
  async complete(id: number, outcome: ProductionOutcome): Promise<ExerciseProduction | null> {
    const graded = 'grade' in outcome;
    const row = await one<ProductionRow>(this.pool, COMPLETE, [
      id,
      graded ? 'graded' : 'failed',
      graded ? outcome.grade : null,
      JSON.stringify(graded ? outcome.comment : []),
      graded ? null : outcome.failureReason,
    ]);
    return row && toProduction(row);
  }

  async delete(id: number): Promise<void> {
    await this.pool.query('DELETE FROM exercise_productions WHERE id = $1', [id]);
  }

  async deleteAll(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM exercise_productions');
    return rowCount ?? 0;
  }

  /** Newest first; used by the list endpoint (students are filtered to their own userId). */
  async list(filter: ProductionFilter): Promise<ExerciseProduction[]> {
    const { rows } = await this.pool.query<ProductionRow>(
      `SELECT ${PRODUCTION_COLUMNS} FROM exercise_productions
        WHERE ($1::int IS NULL OR user_id = $1)
          AND ($2::int IS NULL OR exercise_id = $2)
          AND ($3::int IS NULL OR statement_id = $3)
        ORDER BY created_at DESC, id DESC
        LIMIT $4 OFFSET $5`,
      [filter.userId ?? null, filter.exerciseId ?? null, filter.statementId ?? null, filter.limit, filter.offset],
    );
    return rows.map(toProduction);
  }
}
