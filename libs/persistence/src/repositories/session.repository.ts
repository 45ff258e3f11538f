import type { BusinessSession, NewSession, SessionRepository } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one, translatePgError } from '../queryable';
import { SESSION_COLUMNS, type SessionRow, toSession } from '../rows';

export type { NewSession } from '@shellgrade/domain';

export class PgSessionRepository implements SessionRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<BusinessSession | null> {
    const row = await one<SessionRow>(this.pool, `SELECT ${SESSION_COLUMNS} FROM business_sessions WHERE id = $1`, [id]);
    return row && toSession(row);
  }

  async findByName(name: string): Promise<BusinessSession | null> {
    const row = await one<SessionRow>(this.pool, `SELECT ${SESSION_COLUMNS} FROM business_sessions WHERE name = $1`, [name]);
    return row && toSession(row);
  }

  /** All sessions, or (studentId) only the ones the student is enrolled in. */
  async list(opts: { studentId?: number; limit: number; offset: number }): Promise<BusinessSession[]> {
    const { rows } = await this.pool.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM business_sessions b
        WHERE $1::int IS NULL OR EXISTS (SELECT 1 FROM enrolments e WHERE e.session_id = b.id AND e.user_id = $1)
        ORDER BY id LIMIT $2 OFFSET $3`,
      [opts.studentId ?? null, opts.limit, opts.offset],
    );
    return rows.map(toSession);
  }

  async create(s: NewSession): Promise<BusinessSession> {
    try {
      const row = await one<SessionRow>(
        this.pool,
        `INSERT INTO business_sessions (name, sequence_id, starts_at, ends_at, enrolment_key_hash, teacher_id)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SESSION_COLUMNS}`,
        [s.name, s.sequenceId, s.startsAt, s.endsAt, s.enrolmentKeyHash, s.teacherId],
      );
      return toSession(row!);
    } catch (err) {
      translatePgError(err, `session ${s.name}`);
    }
  }

  async update(id: number, p: Partial<NewSession>): Promise<BusinessSession | null> {
    try {
      const row = await one<SessionRow>(
        this.pool,
        `UPDATE business_sessions SET name = COALESCE($2, name), sequence_id = COALESCE($3, sequence_id),
                starts_at = COALESCE($4, starts_at), ends_at = COALESCE($5, ends_at),
                enrolment_key_hash = COALESCE($6, enrolment_key_hash), teacher_id = COALESCE($7, teacher_id)
          WHERE id = $1 RETURNING ${SESSION_COLUMNS}`,
        [id, p.name ?? null, p.sequenceId ?? null, p.startsAt ?? null, p.endsAt ?? null, p.enrolmentKeyHash ?? null, p.teacherId ?? null],
      );
      return row && toSession(row);
    } catch (err) {
      translatePgError(err, `session ${id}`);
    }
  }

  async delete(id: number): Promise<boolean> {
    try {
      const { rowCount } = await this.pool.query('DELETE FROM business_sessions WHERE id = $1', [id]);
      return rowCount === 1;
    } catch (err) {
      translatePgError(err, `session ${id}`);
    }
  }
}
