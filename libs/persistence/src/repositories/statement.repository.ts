import type { NewStatement, StatementFilter, StatementPatch, StatementRepository, StudentStatement } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, translatePgError } from '../queryable';
import { STATEMENT_COLUMNS, type StatementRow, toStatement } from '../rows';

export type { NewStatement, StatementFilter } from '@shellgrade/domain';

export class PgStatementRepository implements StatementRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<StudentStatement | null> {
    const row = await one<StatementRow>(this.pool, `SELECT ${STATEMENT_COLUMNS} FROM student_statements WHERE id = $1`, [id]);
    return row && toStatement(row);
  }

  async list(f: StatementFilter): Promise<StudentStatement[]> {
    const { rows } = await this.pool.query<StatementRow>(
      `SELECT ${STATEMENT_COLUMNS} FROM student_statements
        WHERE ($1::int IS NULL OR user_id = $1) AND ($2::int IS NULL OR session_id = $2) AND ($3::int IS NULL OR exercise_id = $3)
        ORDER BY id LIMIT $4 OFFSET $5`,
      [f.userId ?? null, f.sessionId ?? null, f.exerciseId ?? null, f.limit, f.offset],
    );
    return rows.map(toStatement);
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
    try {
      const row = await one<StatementRow>(
        this.pool,
        `INSERT INTO student_statements (user_id, session_id, exercise_id, statement_html, question_archive, deadline)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${STATEMENT_COLUMNS}`,
        [s.userId, s.sessionId, s.exerciseId, s.statementHtml, s.questionArchive, s.deadline],
      );
      return toStatement(row!);
    } catch (err) {
      translatePgError(err, 'student statement');
    }
  }

  /** Updates text, archive or deadline (deadline: null clears it, undefined keeps it). */
  async update(id: number, p: StatementPatch): Promise<StudentStatement | null> {
    try {
      const row = await one<StatementRow>(
        this.pool,
        `UPDATE student_statements SET statement_html = COALESCE($2, statement_html),
                question_archive = COALESCE($3, question_archive),
                deadline = CASE WHEN $4 THEN $5::timestamptz ELSE deadline END
          WHERE id = $1 RETURNING ${STATEMENT_COLUMNS}`,
        [id, p.statementHtml ?? null, p.questionArchive ?? null, p.deadline !== undefined, p.deadline ?? null],
      );
      return row && toStatement(row);
    } catch (err) {
      translatePgError(err, `student statement ${id}`);
    }
  }

  async delete(id: number): Promise<boolean> {
    try {
      const { rowCount } = await this.pool.query('DELETE FROM student_statements WHERE id = $1', [id]);
      return rowCount === 1;
    } catch (err) {
      translatePgError(err, `student statement ${id}`);
    }
  }
}
