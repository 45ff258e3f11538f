import type { NewStatement, StatementFilter, StatementPatch, StatementRepository, StudentStatement } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { allAs, deleteById, insertOne, oneAs, writeOne } from '../queryable';
import { STATEMENT_COLUMNS, toStatement } from '../rows';

export type { NewStatement, StatementFilter } from '@shellgrade/domain';

export class PgStatementRepository implements StatementRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<StudentStatement | null> {
    return oneAs(this.pool, `SELECT ${STATEMENT_COLUMNS} FROM student_statements WHERE id = $1`, [id], toStatement);
  }

  async list(f: StatementFilter): Promise<StudentStatement[]> {
    return allAs(
      this.pool,
      `SELECT ${STATEMENT_COLUMNS} FROM student_statements
        WHERE ($1::int IS NULL OR user_id = $1) AND ($2::int IS NULL OR session_id = $2) AND ($3::int IS NULL OR exercise_id = $3)
        ORDER BY id LIMIT $4 OFFSET $5`,
      [f.userId ?? null, f.sessionId ?? null, f.exerciseId ?? null, f.limit, f.offset],
      toStatement,
    );
  }

  /** Ids of the statements of these students in one session (what an enrolment change makes stale in a cache). */
  async idsInSession(sessionId: number, userIds: number[]): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: number }>(
      'SELECT id FROM student_statements WHERE session_id = $1 AND user_id = ANY($2::int[]) ORDER BY id',
      [sessionId, userIds],
    );
    return rows.map((r) => r.id);
  }

  async create(s: NewStatement): Promise<StudentStatement> {
    const row = { user_id: s.userId, session_id: s.sessionId, exercise_id: s.exerciseId, statement_html: s.statementHtml, question_archive: s.questionArchive, deadline: s.deadline };
    return insertOne(this.pool, 'student_statements', row, STATEMENT_COLUMNS, toStatement, 'student statement');
  }

  /** Updates text, archive or deadline (deadline: null clears it, undefined keeps it). */
  async update(id: number, p: StatementPatch): Promise<StudentStatement | null> {
    return writeOne(
      this.pool,
      `UPDATE student_statements SET statement_html = COALESCE($2, statement_html),
              question_archive = COALESCE($3, question_archive),
              deadline = CASE WHEN $4 THEN $5::timestamptz ELSE deadline END
        WHERE id = $1 RETURNING ${STATEMENT_COLUMNS}`,
      [id, p.statementHtml ?? null, p.questionArchive ?? null, p.deadline !== undefined, p.deadline ?? null],
      toStatement,
      `student statement ${id}`,
    );
  }

  async delete(id: number): Promise<boolean> {
    return deleteById(this.pool, 'student_statements', id, `student statement ${id}`);
  }
}
