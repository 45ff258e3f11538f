import { Client } from 'pg';
import { migrate } from '../src/migrate';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';

describe('migrations (node-pg-migrate, real PostgreSQL)', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('creates every table of DESIGN §3', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'business_sessions',
      'enrolments',
      'exercise_productions',
      'exercises',
      'pgmigrations',
      'refresh_tokens',
      'sequence_exercises',
      'sequences',
      'student_statements',
      'users',
    ]);
  });

  it('is idempotent: a second run applies nothing', async () => {
    await expect(migrate(db.url)).resolves.toEqual([]);
  });

  it('goes down and up again', async () => {
    await expect(migrate(db.url, 'down')).resolves.toEqual(['1763776800000_initial-schema']);
    const { rows } = await client.query(`SELECT to_regclass('public.users') AS t`);
    expect(rows[0].t).toBeNull();
    await expect(migrate(db.url)).resolves.toEqual(['1763776800000_initial-schema']);
  }, 60_000);

  it('serialises concurrent runs (replicas starting together): the schema is applied once', async () => {
    const fresh = await createTestDatabase(undefined, false);
    try {
      const runs = await Promise.all([migrate(fresh.url), migrate(fresh.url), migrate(fresh.url)]);
      expect(runs.flat()).toEqual(['1763776800000_initial-schema']);
    } finally {
      await fresh.drop();
    }
  }, 60_000);

  it('reports a clear error for an unreachable database', async () => {
    await expect(migrate('postgres://nobody:x@127.0.0.1:1/none')).rejects.toThrow(/migration up failed/);
  }, 60_000);
});
