import type { BusinessSession, NewSession, SessionRepository } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { allAs, deleteById, insertOne, oneAs, writeOne } from '../queryable';
import { SESSION_COLUMNS, toSession } from '../rows';

export type { NewSession } from '@shellgrade/domain';

export class PgSessionRepository implements SessionRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<BusinessSession | null> {
    return oneAs(this.pool, `SELECT ${SESSION_COLUMNS} FROM business_sessions WHERE id = $1`, [id], toSession);
  }

  async findByName(name: string): Promise<BusinessSession | null> {
    return oneAs(this.pool, `SELECT ${SESSION_COLUMNS} FROM business_sessions WHERE name = $1`, [name], toSession);
  }

  /** All sessions, or (studentId) only the ones the student is enrolled in. */
  async list(opts: { studentId?: number; limit: number; offset: number }): Promise<BusinessSession[]> {
    return allAs(
      this.pool,
      `SELECT ${SESSION_COLUMNS} FROM business_sessions b
        WHERE $1::int IS NULL OR EXISTS (SELECT 1 FROM enrolments e WHERE e.session_id = b.id AND e.user_id = $1)
        ORDER BY id LIMIT $2 OFFSET $3`,
      [opts.studentId ?? null, opts.limit, opts.offset],
      toSession,
    );
  }

  async create(s: NewSession): Promise<BusinessSession> {
    const row = { name: s.name, sequence_id: s.sequenceId, starts_at: s.startsAt, ends_at: s.endsAt, enrolment_key_hash: s.enrolmentKeyHash, teacher_id: s.teacherId };
    return insertOne(this.pool, 'business_sessions', row, SESSION_COLUMNS, toSession, `session ${s.name}`);
  }

  async update(id: number, p: Partial<NewSession>): Promise<BusinessSession | null> {
    return writeOne(
      this.pool,
      `UPDATE business_sessions SET name = COALESCE($2, name), sequence_id = COALESCE($3, sequence_id),
              starts_at = COALESCE($4, starts_at), ends_at = COALESCE($5, ends_at),
              enrolment_key_hash = COALESCE($6, enrolment_key_hash), teacher_id = COALESCE($7, teacher_id)
        WHERE id = $1 RETURNING ${SESSION_COLUMNS}`,
      [id, p.name ?? null, p.sequenceId ?? null, p.startsAt ?? null, p.endsAt ?? null, p.enrolmentKeyHash ?? null, p.teacherId ?? null],
      toSession,
      `session ${id}`,
    );
  }

  async delete(id: number): Promise<boolean> {
    return deleteById(this.pool, 'business_sessions', id, `session ${id}`);
  }
}
