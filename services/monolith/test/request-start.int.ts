/**
 * X-Request-Start sets a submission's answer deadline, so the monolith believes it only from the
 * variant's own proxies (naked-mon has none in front: the student's client is the peer). A
 * student writing it cannot exempt a submission from load shedding with a future time, nor get it
 * refused as expired with a past one: the deadline counts from when the monolith received the
 * request. The monolith's own composition root over HTTP, real grader, real PostgreSQL.
 */
import type { INestApplication } from '@nestjs/common';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
import { loadCatalog, loadSamples, PAPER_SLUG } from '@shellgrade/grading';
import { formatRequestStart } from '@shellgrade/http';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import { startTestApp } from '@shellgrade/wiring/testing';
import request from 'supertest';
import { MonolithModule } from '../src/app.module';

// Gradings run in the real sandbox: Jest's 5 s default would fail them on a busy machine.
jest.setTimeout(60_000);

const HOUR_MS = 3_600_000;
const good = loadSamples(PAPER_SLUG).good;

let db: TestDatabase;
let seeded: SeedResult;

beforeAll(async () => {
  db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
  seeded = await seed(pool, { students: 4, teachers: 0, catalog: await loadCatalog(), kdfCost: 4 });
  await pool.end();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

/** naked-mon with admission on and this answer deadline, built by the monolith's own root. */
async function monolith(answerDeadlineS: number): Promise<INestApplication> {
  const base = loadVariant('naked-mon');
  const spec = { ...base, auth: { ...base.auth, kdfCost: 4 }, admission: { ...base.admission, enabled: true, answerDeadlineS } };
  const cfg: ServiceConfig = { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 0 }), connections: loadConnections({ DATABASE_URL: db.url }) };
  return startTestApp([MonolithModule.forRoot(cfg)], cfg);
}

/** Student `i` submits the good answer, with `requestStart` as its X-Request-Start when given. */
async function submit(app: INestApplication, i: number, requestStart?: number) {
  const student = seeded.students[i]!;
  const agent = request.agent(app.getHttpServer());
  await agent.post('/api/user/login').send({ email: student.email, password: SEED_PASSWORDS.student }).expect(200);
  const post = agent.post('/api/exercise-production');
  if (requestStart !== undefined) post.set('X-Request-Start', formatRequestStart(requestStart));
  return post.send({ ex_id: seeded.csvExerciseId, ps_id: student.statementId, production_data: { data: [...good] } });
}

describe('a student-written X-Request-Start, answer deadline 0 s (every submission expires)', () => {
  let app: INestApplication;
  // 0.1 ms rounds to a 0 ms budget: the deadline is the arrival itself, passed by the time a grader starts.
  beforeAll(async () => (app = await monolith(0.0001)), 60_000);
  afterAll(async () => app?.close());

  it('without the header: 503 expired, the baseline', async () => {
    const res = await submit(app, 0);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ reason: 'expired' });
  });

  it('an hour in the future does not exempt the submission: 503 expired, as without it', async () => {
    const res = await submit(app, 1, Date.now() + HOUR_MS);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ reason: 'expired' });
  });
});

describe('a student-written X-Request-Start, answer deadline 60 s', () => {
  let app: INestApplication;
  beforeAll(async () => (app = await monolith(60)), 60_000);
  afterAll(async () => app?.close());

  it('an hour in the past does not expire the submission: it is graded (201)', async () => {
    const res = await submit(app, 2, Date.now() - HOUR_MS);
    expect(res.status).toBe(201);
    expect(res.body.grade).toBe(100);
  });
});
