import type { EnrolmentRepository } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { translatePgError } from '../queryable';

export class PgEnrolmentRepository implements EnrolmentRepository {
  constructor(private readonly pool: Pool) {}

  /** Idempotent: enrolling twice is not an error. */
  async enrol(sessionId: number, userIds: number[]): Promise<number> {
    try {
      const { rowCount } = await this.pool.query(
        `INSERT INTO enrolments (session_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
        [sessionId, userIds],
      );
      return rowCount ?? 0;
    } catch (err) {
      translatePgError(err, `enrolment in session ${sessionId}`);
    }
  }

  async isEnrolled(sessionId: number, userId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM enrolments WHERE session_id = $1 AND user_id = $2', [sessionId, userId]);
    return rowCount === 1;
  }

  async listUserIds(sessionId: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ user_id: number }>(
      'SELECT user_id FROM enrolments WHERE session_id = $1 ORDER BY user_id',
      [sessionId],
    );
    return rows.map((r) => r.user_id);
  }

  async unenrol(sessionId: number, userId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM enrolments WHERE session_id = $1 AND user_id = $2', [sessionId, userId]);
    return rowCount === 1;
  }
}
