import { Pool } from 'pg';
import { verifyPassword } from '@shellgrade/auth';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, seedCsv, SEED_PASSWORDS } from '@shellgrade/admin-cli/seed';
import { databaseStats } from '../src/stats';
// The two-exercise test catalog of libs/persistence's own tests.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { testCatalog } from '../../persistence/test/fixtures';

describe('seed (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('seeds users, catalog, sequence, session, enrolments and statements; twice gives the same state', async () => {
    const opts = { students: 5, teachers: 2, catalog: testCatalog, kdfCost: 4 };
    const first = await seed(pool, opts);
    const before = await databaseStats(pool);
    const second = await seed(pool, opts);
    const after = await databaseStats(pool);

    expect(after.rows).toEqual(before.rows);
    expect(after.rows).toMatchObject({
      users: 8,
      exercises: 2,
      sequences: 1,
      sequence_exercises: 2,
      business_sessions: 1,
      enrolments: 5,
      student_statements: 10,
      exercise_productions: 0,
    });
    expect(second.students.map((s) => s.userId)).toEqual(first.students.map((s) => s.userId));
    expect(second.students.map((s) => s.statementId)).toEqual(first.students.map((s) => s.statementId));
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.csvExerciseId).toBe(first.exerciseIds['paper-scripts']);

    const { rows } = await pool.query('SELECT email, role, password_hash FROM users ORDER BY id');
    expect(rows.filter((r) => r.role === 'admin')).toHaveLength(1);
    const student = rows.find((r) => r.email === 'student1@shellgrade.test');
    await expect(verifyPassword(SEED_PASSWORDS.student, student.password_hash)).resolves.toBe(true);
    const { rows: deadlines } = await pool.query('SELECT min(deadline) AS d FROM student_statements');
    expect(deadlines[0].d.getTime()).toBeGreaterThan(Date.now());
  }, 60_000);

  it('writes a CSV whose ids match the statements of the paper exercise', async () => {
    const result = await seed(pool, { students: 3, teachers: 1, catalog: testCatalog, kdfCost: 4 });
    const lines = seedCsv(result).trim().split('\n');
    expect(lines[0]).toBe('email,password,user_id,ex_id,ps_id');
    expect(lines).toHaveLength(4);
    const [email, password, userId, exId, psId] = lines[1]!.split(',');
    expect(email).toBe('student1@shellgrade.test');
    expect(password).toBe(SEED_PASSWORDS.student);
    const { rows } = await pool.query('SELECT user_id, exercise_id FROM student_statements WHERE id = $1', [Number(psId)]);
    expect(rows[0]).toEqual({ user_id: Number(userId), exercise_id: Number(exId) });
  }, 60_000);

  it('seeds 1000 students in one pass (batched inserts)', async () => {
    const started = Date.now();
    const result = await seed(pool, { students: 1000, teachers: 2, catalog: testCatalog, kdfCost: 4 });
    const ms = Date.now() - started;
    expect(result.students).toHaveLength(1000);
    expect(new Set(result.students.map((s) => s.statementId)).size).toBe(1000);
    const stats = await databaseStats(pool);
    expect(stats.rows.student_statements).toBe(2000);
    console.log(`seed of 1000 students: ${ms} ms`);
  }, 120_000);
});
