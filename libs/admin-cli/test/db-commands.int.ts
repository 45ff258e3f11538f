import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDbCommand } from '../src/db-commands';
import { createPool, PgProductionRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';

describe('db commands: migrate, seed (real catalog), stats, reset', () => {
  let db: TestDatabase;
  let dir: string;
  const run = async (...argv: string[]): Promise<string> => {
    const lines: string[] = [];
    await runDbCommand(argv, { DATABASE_URL: db.url }, (l) => lines.push(l));
    return lines.join('\n');
  };

  beforeAll(async () => {
    db = await createTestDatabase(undefined, false);
    dir = await mkdtemp(join(tmpdir(), 'sg-db-cli-'));
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('migrates, then reports the schema up to date', async () => {
    await expect(run('migrate')).resolves.toBe('applied: 1763776800000_initial-schema, 1763900000000_auth-hardening, 1764100000000_grading-backlog, 1764200000000_sequence-authors, 1764300000000_cheaper-writes, 1764400000000_access-state-notifications');
    await expect(run('migrate')).resolves.toBe('schema up to date');
  }, 60_000);

  it('seeds the real catalog idempotently and writes the load-test CSV', async () => {
    const csv = join(dir, 'users.csv');
    const first = JSON.parse(await run('seed', '--students', '4', '--teachers', '1', '--kdf-cost', '4', '--csv', csv));
    const second = JSON.parse(await run('seed', '--students', '4', '--teachers', '1', '--kdf-cost', '4', '--csv', csv));
    expect(first).toMatchObject({ students: 4, teachers: 1, csv });
    expect(first.exercises).toBeGreaterThanOrEqual(1);
    expect(first.statements).toBe(4 * first.exercises);
    expect(second.csvExerciseId).toBe(first.csvExerciseId);
    const lines = (await readFile(csv, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('email,password,user_id,ex_id,ps_id');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([1, 2, 3, 4].map((i) => `student${i}@shellgrade.test`));
    const stats = JSON.parse(await run('stats'));
    expect(stats.rows).toMatchObject({ users: 6, enrolments: 4, business_sessions: 1, exercise_productions: 0 });
  }, 120_000);

  it('reset deletes every production with its archive and prints the count', async () => {
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    try {
      const { rows } = await pool.query<{ id: number; user_id: number; exercise_id: number }>(
        'SELECT id, user_id, exercise_id FROM student_statements ORDER BY id LIMIT 2',
      );
      const repo = new PgProductionRepository(pool);
      for (const s of rows) {
        const { production } = await repo.create({
          userId: s.user_id, exerciseId: s.exercise_id, statementId: s.id,
          submissionKey: `reset-${s.id}`, archiveSize: 4096, archiveSha256: '0'.repeat(64), status: 'received',
        });
        await pool.query('UPDATE exercise_productions SET archive = $2 WHERE id = $1', [production.id, Buffer.alloc(4096, 7)]);
      }
      expect(await run('reset', '--vacuum-full')).toMatch(/^deleted 2 productions and 0 ended sessions; exercise_productions now \d+ bytes$/);
      const { rows: left } = await pool.query('SELECT count(*)::int AS n FROM exercise_productions');
      expect(left[0].n).toBe(0);
      await expect(run('reset')).resolves.toMatch(/^deleted 0 productions/);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('rejects unknown commands and bad options', async () => {
    await expect(run('bogus')).rejects.toThrow(/usage: db migrate/);
    await expect(run('seed', '--students=-3')).rejects.toThrow(/--students must be a non-negative integer/);
    await expect(run('seed', '--nope')).rejects.toThrow(/Unknown option/);
  });
});
