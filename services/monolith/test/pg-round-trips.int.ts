/**
 * The PostgreSQL round trips of each request of scenario R, through the monolith's own composition
 * root (naked-mon: inline grading, archives in PostgreSQL, no cache; every naked-mon preset sends
 * the same statements), over HTTP, against a fresh real PostgreSQL and the real sandboxed grader.
 * Counted from the pg client (every query a pooled client sends is one round trip), not timed:
 *   login       the credentials, the new session's refresh token
 *   verify      the refresh token rotated, the account read by the same statement
 *   SPS         the submission's context, the production inserted with its archive (already
 *               'grading': the request grades it), the outcome — no authentication read: the
 *               refresh just read the token version and renewed the session, and this request
 *               comes within tokenVersionCacheMs of it (after the original client's 5 s pause,
 *               a lone monolith reads them again: 4, as `bench pg-statements` shows)
 *   logout      the session revoked
 *   verify      (logged out, no cookie) none
 * and each one a prepared statement (parsed and planned once per connection, not per request).
 * `npm run bench -- pg-statements` measures the same from the server's side, with its CPU.
 */
import type { INestApplication } from '@nestjs/common';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
import { loadCatalog, loadSamples, PAPER_SLUG } from '@shellgrade/grading';
import { ACCESS_STATE_APPLICATION, createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import { startTestApp } from '@shellgrade/wiring/testing';
import { Client } from 'pg';
import request from 'supertest';
import { MonolithModule } from '../src/app.module';

// The SPS grades in the real sandbox before it answers: Jest's 5 s default would fail on a busy machine.
jest.setTimeout(120_000);

interface Sent {
  kind: string;
  prepared: boolean;
}

/** The interrupted-gradings sweep: on a timer (at start, then every few seconds), no request's. */
const SWEEP = 'sweep';

/** A statement by what it does, for readable expectations. */
function kindOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (/^UPDATE exercise_productions SET status = 'queued' WHERE id IN \(SELECT id FROM exercise_productions/.test(s)) return SWEEP;
  if (/^SELECT .*password_hash.* FROM users WHERE email = \$1/.test(s)) return 'credentials';
  if (/^INSERT INTO refresh_tokens/.test(s)) return 'session';
  if (/^WITH spent AS \( ?UPDATE refresh_tokens SET used_at/.test(s)) return /JOIN users/.test(s) ? 'rotate+account' : 'rotate';
  if (/^SELECT .* FROM users WHERE id = \$1/.test(s)) return 'auth read';
  if (/^SELECT \(SELECT token_version FROM users/.test(s)) return 'auth read';
  if (/^SELECT EXISTS \(SELECT 1 FROM refresh_tokens/.test(s)) return 'auth read';
  if (/^SELECT .* FROM student_statements s JOIN exercises/.test(s)) return 'context';
  if (/^INSERT INTO exercise_productions .*\barchive\)/.test(s)) return 'insert+archive';
  if (/^UPDATE exercise_productions SET status = \$2 WHERE id = \$1/.test(s)) return 'status';
  if (/^UPDATE exercise_productions SET status = \$2, grade = \$3/.test(s)) return 'outcome';
  if (/^UPDATE refresh_tokens SET revoked_at = now\(\) WHERE family_id = \$1/.test(s)) return 'revoke';
  return s.slice(0, 80);
}

describe('monolith (naked-mon): PostgreSQL round trips per request of scenario R', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let seeded: SeedResult;
  const sent: Sent[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 2, teachers: 0, catalog: await loadCatalog(), kdfCost: 4 });
    await pool.end();
    const base = loadVariant('naked-mon');
    const spec = { ...base, auth: { ...base.auth, kdfCost: 4 } };
    const cfg: ServiceConfig = { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 0 }), connections: loadConnections({ ...process.env, DATABASE_URL: db.url }) };
    app = await startTestApp([MonolithModule.forRoot(cfg)], cfg);
    // Every query a client of the app's pool sends: one round trip each (node-postgres sends a query's messages at once).
    const query = Client.prototype.query as (...args: unknown[]) => unknown;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      // (the process's listening connection is no request's: its LISTEN and its liveness checks)
      if ((this as Client & { connectionParameters: { application_name?: string } }).connectionParameters.application_name === ACCESS_STATE_APPLICATION) return query.apply(this, args);
      const first = args[0] as string | { text?: string; name?: string };
      const trip = typeof first === 'string' ? { kind: kindOf(first), prepared: false } : { kind: kindOf(String(first.text)), prepared: Boolean(first.name) };
      if (trip.kind !== SWEEP) sent.push(trip);
      return query.apply(this, args);
    } as never);
  }, 120_000);

  afterAll(async () => {
    jest.restoreAllMocks();
    await app?.close();
    await db?.drop();
  });

  /** The round trips of one request. */
  async function roundTrips(send: () => Promise<unknown>): Promise<Sent[]> {
    sent.length = 0;
    await send();
    return [...sent];
  }

  const kinds = (trips: Sent[]) => trips.map((t) => t.kind);

  it('one iteration: login 2, verify 1, SPS 3, logout 1, the last verify 0 — each statement prepared', async () => {
    const student = seeded.students[0]!;
    const agent = request.agent(app.getHttpServer());
    const archive = loadSamples(PAPER_SLUG).good;
    const spa = {
      ex_id: seeded.csvExerciseId,
      ps_id: student.statementId,
      production_data: { name: 'answer.tgz', size: archive.length, data: Object.fromEntries(Array.from(archive, (b, i) => [String(i), b])) },
    };

    const login = await roundTrips(() => agent.post('/api/user/login').send({ email: student.email, password: SEED_PASSWORDS.student }).expect(200));
    const verify = await roundTrips(() => agent.get('/api/auth/verify').expect(200));
    const sps = await roundTrips(async () => {
      const res = await agent.post('/api/exercise-production').send(spa).expect(201);
      expect(res.body).toMatchObject({ grade: 100 });
    });
    const logout = await roundTrips(() => agent.delete('/api/user/logout').expect(200));
    const verifyOut = await roundTrips(() => request(app.getHttpServer()).get('/api/auth/verify').expect(401));

    // All at once, so a regression shows every request type it touched.
    const unprepared = [...login, ...verify, ...sps, ...logout].filter((t) => !t.prepared).map((t) => t.kind);
    expect({ login: kinds(login), verify: kinds(verify), sps: kinds(sps), logout: kinds(logout), verifyOut: kinds(verifyOut), unprepared }).toEqual({
      login: ['credentials', 'session'],
      verify: ['rotate+account'],
      sps: ['context', 'insert+archive', 'outcome'],
      logout: ['revoke'],
      verifyOut: [],
      unprepared: [],
    });
  });

  it('a refresh after the account is gone is refused in that one round trip: the session went with it', async () => {
    const student = seeded.students[1]!;
    const agent = request.agent(app.getHttpServer());
    await agent.post('/api/user/login').send({ email: student.email, password: SEED_PASSWORDS.student }).expect(200);
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('DELETE FROM users WHERE id = $1', [student.userId]);
    } finally {
      await admin.end();
    }
    sent.length = 0;
    const res = await agent.get('/api/auth/verify').expect(401);
    expect(res.body.detail ?? res.body.title).toMatch(/revoked or expired/);
    // The rotation found no live token (the account's sessions were deleted with it), then looked for a spent one.
    expect(kinds(sent)).toEqual(['rotate+account', expect.stringMatching(/^SELECT family_id FROM refresh_tokens/)]);
  });
});
