/**
 * The data S2 reads: graded productions for every statement of the seeded session, written
 * straight into PostgreSQL (grading thousands of archives first would take the sandbox minutes
 * and measure nothing S2 is about). Deterministic grades, one submission key per row, no archive.
 * `npm run db -- reset` (between runs) deletes them with every other production.
 */
import { Pool } from 'pg';

export const SEEDED_SESSION_NAME = 'Seeded session';

/** A spread of grades over the whole scale, the same for the same (statement, attempt). */
export const syntheticGrade = (statementId: number, attempt: number) => (statementId * 37 + attempt * 53) % 101;

/** Inserts `perStatement` graded productions per statement of the seeded session; returns how many rows the session now has. */
export async function seedSessionProductions(databaseUrl: string, perStatement: number): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const session = await pool.query<{ id: number }>('SELECT id FROM business_sessions WHERE name = $1', [SEEDED_SESSION_NAME]);
    if (!session.rows[0]) throw new Error(`no "${SEEDED_SESSION_NAME}": seed the database first`);
    const sessionId = session.rows[0].id;
    await pool.query(
      `INSERT INTO exercise_productions (user_id, exercise_id, statement_id, status, grade, submission_key, archive_size, archive_sha256, graded_at)
       SELECT s.user_id, s.exercise_id, s.id, 'graded', (s.id * 37 + a * 53) % 101, 'sweep:' || s.id || ':' || a, 1077, repeat('0', 64), now()
         FROM student_statements s CROSS JOIN generate_series(1, $2::int) AS a
        WHERE s.session_id = $1
       ON CONFLICT (submission_key) DO NOTHING`,
      [sessionId, perStatement],
    );
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM exercise_productions p JOIN student_statements s ON s.id = p.statement_id WHERE s.session_id = $1',
      [sessionId],
    );
    return rows[0]!.n;
  } finally {
    await pool.end();
  }
}
