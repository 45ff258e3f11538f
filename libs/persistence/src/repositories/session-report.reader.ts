import type { SessionProductionRecord, SessionProductionsSource, SessionRoster, SessionRosterReader } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { one } from '../queryable';
import type { ProductionRow } from '../rows';

/** A session's name, ordered sequence and enrolled students, in one query (Leftover's own data). */
export class PgSessionRosterReader implements SessionRosterReader {
  constructor(private readonly pool: Pool) {}

  async roster(sessionId: number): Promise<SessionRoster | null> {
    const row = await one<{ id: number; name: string; exercise_ids: number[]; students: SessionRoster['students'] }>(
      this.pool,
      `SELECT b.id, b.name,
              coalesce((SELECT array_agg(se.exercise_id ORDER BY se.position) FROM sequence_exercises se WHERE se.sequence_id = b.sequence_id), '{}') AS exercise_ids,
              coalesce((SELECT json_agg(json_build_object('id', u.id, 'firstname', u.firstname, 'lastname', u.lastname, 'email', u.email) ORDER BY u.id)
                          FROM enrolments e JOIN users u ON u.id = e.user_id WHERE e.session_id = b.id), '[]') AS students
         FROM business_sessions b WHERE b.id = $1`,
      [sessionId],
    );
    return row && { sessionId: row.id, name: row.name, exerciseIds: row.exercise_ids, students: row.students };
  }
}

type SessionProductionRow = Pick<ProductionRow, 'id' | 'user_id' | 'exercise_id' | 'statement_id' | 'status' | 'grade' | 'created_at'>;

/** Every production of a session's statements, oldest first (the Exercise service's data; in-process in the monolith). */
export class PgSessionProductions implements SessionProductionsSource {
  constructor(private readonly pool: Pool) {}

  async productionsOfSession(sessionId: number): Promise<SessionProductionRecord[]> {
    const { rows } = await this.pool.query<SessionProductionRow>(
      `SELECT p.id, p.user_id, p.exercise_id, p.statement_id, p.status, p.grade, p.created_at
         FROM exercise_productions p JOIN student_statements s ON s.id = p.statement_id
        WHERE s.session_id = $1
        ORDER BY p.id`,
      [sessionId],
    );
    return rows.map((r) => ({
      productionId: r.id,
      userId: r.user_id,
      exerciseId: r.exercise_id,
      statementId: r.statement_id,
      status: r.status,
      grade: r.grade,
      createdAt: r.created_at,
    }));
  }
}
