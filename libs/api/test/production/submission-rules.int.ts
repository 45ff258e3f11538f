/**
 * Who may submit, over HTTP: only an enrolled student,
 * while the session runs, on a published exercise (403 saying which, nothing stored); a
 * student's productions are "not found" to other students (404, like a missing id); ids past
 * PostgreSQL's integer are 400; submissions per student are rate-limited (429 + Retry-After).
 * The composition of the monolith, with the real grader and real PostgreSQL.
 */
import type { INestApplication } from '@nestjs/common';
import { AuthModule } from '@shellgrade/auth';
import { loadCatalog, loadSamples, PAPER_SLUG } from '@shellgrade/grading';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
// The spec and the wiring the services use: the monolith's ports, composed the same way.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { archiveStore, authConfigOf, cache, database, dispatch, grader, portsModule, submissions } from '@shellgrade/wiring';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startTestApp } from '@shellgrade/wiring/testing';
import type { Pool } from 'pg';
import request from 'supertest';
import { ProductionApiModule } from '../../src/production/production-api.module';
import { AuthApiModule } from '../../src/auth';

const SUBMISSIONS_PER_STUDENT = 4;

// Tests here grade in the real sandbox: Jest's 5 s default would fail them on a busy machine.
jest.setTimeout(60_000);

describe('submission rules over HTTP (monolith composition, real grader, real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let seeded: SeedResult;
  let app: INestApplication;
  const good = loadSamples(PAPER_SLUG).good;

  const loggedIn = async (i: number) => {
    const agent = request.agent(app.getHttpServer());
    await agent.post('/api/user/login').send({ email: seeded.students[i]!.email, password: SEED_PASSWORDS.student }).expect(200);
    return agent;
  };
  const submit = (agent: ReturnType<typeof request.agent>, i: number) =>
    agent.post('/api/exercise-production').send({ ex_id: seeded.csvExerciseId, ps_id: seeded.students[i]!.statementId, production_data: { data: [...good] } });
  const stored = async (i: number) =>
    (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM exercise_productions WHERE user_id = $1', [seeded.students[i]!.userId])).rows[0]!.n;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 8, teachers: 1, catalog: await loadCatalog(), kdfCost: 4 });
    const base = loadVariant('naked-mon');
    const spec = { ...base, auth: { ...base.auth, kdfCost: 4, rateLimits: { ...base.auth.rateLimits, submissionsPerStudent: { points: SUBMISSIONS_PER_STUDENT, durationS: 600 } } } };
    const cfg: ServiceConfig = { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 0 }), connections: loadConnections({ ...process.env, DATABASE_URL: db.url }) };
    app = await startTestApp([
      portsModule([...database(cfg), ...archiveStore(cfg), ...cache.none(cfg), ...grader(cfg), ...dispatch.inline(cfg), ...submissions(cfg)]),
      AuthModule.forRoot(authConfigOf(cfg)),
      AuthApiModule,
      ProductionApiModule.forRoot({ maxArchiveBytes: spec.http.maxArchiveBytes }),
    ], cfg);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await db?.drop();
  });

  it('grades an enrolled student in a running session on a published exercise', async () => {
    const res = await submit(await loggedIn(0), 0).expect(201);
    expect(res.body.grade).toBe(100);
  });

  it.each([
    ['a student no longer enrolled', 1, 'DELETE FROM enrolments WHERE user_id = $1', /not enrolled/],
    ['a session that is over', 2, "UPDATE business_sessions SET starts_at = now() - interval '2 days', ends_at = now() - interval '1 day' WHERE id = (SELECT session_id FROM student_statements WHERE user_id = $1 LIMIT 1)", /closed at/],
  ])('refuses %s with 403 saying why, storing nothing', async (_name, i, sql, why) => {
    await pool.query(sql, [seeded.students[i]!.userId]);
    try {
      const res = await submit(await loggedIn(i), i).expect(403);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.detail).toMatch(why);
      expect(await stored(i)).toBe(0);
    } finally {
      // The seeded session is shared: reopen it for the next tests.
      await pool.query("UPDATE business_sessions SET starts_at = now() - interval '1 day', ends_at = now() + interval '365 days'");
    }
  });

  it('refuses an exercise that is not published (draft, archived) with 403, storing nothing', async () => {
    await pool.query("UPDATE exercises SET state = 'archived' WHERE id = $1", [seeded.csvExerciseId]);
    try {
      const res = await submit(await loggedIn(3), 3).expect(403);
      expect(res.body.detail).toMatch(/not open for submissions \(it is archived\)/);
      expect(await stored(3)).toBe(0);
    } finally {
      await pool.query("UPDATE exercises SET state = 'published' WHERE id = $1", [seeded.csvExerciseId]);
    }
  });

  it("another student's production is 404, the same answer as a missing one; ids past int are 400", async () => {
    const owner = await loggedIn(4);
    const created = await submit(owner, 4).expect(201);
    await owner.get(`/api/exercise-production/${created.body.ep_id}`).expect(200);
    const other = await loggedIn(5);
    const theirs = await other.get(`/api/exercise-production/${created.body.ep_id}`).expect(404);
    const missing = await other.get('/api/exercise-production/2000000000').expect(404);
    expect(theirs.body.title).toBe(missing.body.title);
    await other.get('/api/exercise-production/99999999999').expect(400);
    await other.post('/api/exercise-production').send({ ex_id: 99999999999, ps_id: 1, production_data: { data: [1] } }).expect(400);
  });

  it(`answers 429 with Retry-After past ${SUBMISSIONS_PER_STUDENT} submissions per window, storing nothing more`, async () => {
    const agent = await loggedIn(6);
    for (let n = 0; n < SUBMISSIONS_PER_STUDENT; n++) await submit(agent, 6).expect(201);
    const refused = await submit(agent, 6).expect(429);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored(6)).toBe(SUBMISSIONS_PER_STUDENT);
    // Another student is not affected.
    await submit(await loggedIn(7), 7).expect(201);
  }, 60_000);
});
