import { verifyEnrolmentKey } from '@shellgrade/auth';
import { Client } from 'pg';
import { migrate } from '../src/migrate';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';

/** Every migration, in order. */
const MIGRATIONS = ['1763776800000_initial-schema', '1763900000000_auth-hardening', '1764100000000_grading-backlog', '1764200000000_sequence-authors', '1764300000000_cheaper-writes', '1764400000000_access-state-notifications'];

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

  it('creates every table of the domain (docs/design.md, Domain)', async () => {
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

  it('goes down and up again, one migration at a time', async () => {
    for (const name of [...MIGRATIONS].reverse()) await expect(migrate(db.url, 'down')).resolves.toEqual([name]);
    const { rows } = await client.query(`SELECT to_regclass('public.users') AS t`);
    expect(rows[0].t).toBeNull();
    await expect(migrate(db.url)).resolves.toEqual(MIGRATIONS);
  }, 60_000);

  it('hashes enrolment keys that were stored in clear, and the API still accepts them', async () => {
    const fresh = await createTestDatabase(undefined, false);
    const c = new Client({ connectionString: fresh.url });
    await c.connect();
    try {
      await migrate(fresh.url);
      // Down to just before the auth hardening (the migrations after it first).
      for (const name of MIGRATIONS.slice(MIGRATIONS.indexOf('1763900000000_auth-hardening')).reverse()) await expect(migrate(fresh.url, 'down')).resolves.toEqual([name]);
      await c.query("INSERT INTO sequences (name) VALUES ('s')");
      await c.query("INSERT INTO business_sessions (name, sequence_id, starts_at, ends_at, enrolment_key) SELECT 'old', id, now(), now(), 'an-old-clear-key' FROM sequences");
      await migrate(fresh.url);
      const { rows } = await c.query<{ enrolment_key_hash: string }>('SELECT enrolment_key_hash FROM business_sessions');
      expect(rows[0]!.enrolment_key_hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
      await expect(verifyEnrolmentKey('an-old-clear-key', rows[0]!.enrolment_key_hash)).resolves.toBe(true);
      await expect(verifyEnrolmentKey('another-key', rows[0]!.enrolment_key_hash)).resolves.toBe(false);
    } finally {
      await c.end();
      await fresh.drop();
    }
  }, 60_000);

  it('gives an existing sequence the teacher of its first session as author (none when no session follows it)', async () => {
    const fresh = await createTestDatabase(undefined, false);
    const c = new Client({ connectionString: fresh.url });
    await c.connect();
    try {
      await migrate(fresh.url);
      for (const name of MIGRATIONS.slice(MIGRATIONS.indexOf('1764200000000_sequence-authors')).reverse()) await expect(migrate(fresh.url, 'down')).resolves.toEqual([name]);
      const teacher = async (email: string) =>
        (await c.query<{ id: number }>("INSERT INTO users (email, password_hash, role) VALUES ($1, 'x', 'teacher') RETURNING id", [email])).rows[0]!.id;
      const [first, second] = [await teacher('t1@x.test'), await teacher('t2@x.test')];
      await c.query("INSERT INTO sequences (name) VALUES ('followed'), ('unfollowed')");
      const session = "INSERT INTO business_sessions (name, sequence_id, starts_at, ends_at, enrolment_key_hash, teacher_id) SELECT $1, id, now(), now(), 'k', $2 FROM sequences WHERE name = 'followed'";
      await c.query(session, ['first', first]);
      await c.query(session, ['second', second]);
      await migrate(fresh.url);
      const { rows } = await c.query<{ name: string; author_id: number | null }>('SELECT name, author_id FROM sequences ORDER BY name');
      expect(rows).toEqual([{ name: 'followed', author_id: first }, { name: 'unfollowed', author_id: null }]);
    } finally {
      await c.end();
      await fresh.drop();
    }
  }, 60_000);

  it('serialises concurrent runs (replicas starting together): the schema is applied once', async () => {
    const fresh = await createTestDatabase(undefined, false);
    try {
      const runs = await Promise.all([migrate(fresh.url), migrate(fresh.url), migrate(fresh.url)]);
      expect(runs.flat()).toEqual(MIGRATIONS);
    } finally {
      await fresh.drop();
    }
  }, 60_000);

  it('reports a clear error for an unreachable database', async () => {
    await expect(migrate('postgres://nobody:x@127.0.0.1:1/none')).rejects.toThrow(/migration up failed/);
  }, 60_000);
});
