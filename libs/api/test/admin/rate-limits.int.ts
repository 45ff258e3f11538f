/**
 * Rate limits over HTTP, with small windows so a test can reach them:
 * failed logins per account and per client, wrong enrolment keys per user; 429 problem+json
 * with Retry-After. Successful logins, as a load test sends them, are never counted.
 * Real PostgreSQL; the `redis` store is exercised against the real Redis at the end.
 */
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AuthModule, RateLimits, type RateLimitConfig } from '@shellgrade/auth';
import { DomainError } from '@shellgrade/domain';
import { configureHttpApp } from '@shellgrade/http';
import { createPool, persistenceProviders } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
// Tests take the servers' addresses from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections, type VariantSpecInput } from '@shellgrade/variant';
import request from 'supertest';
import { LeftoverApiModule } from '../../src/admin/leftover-api.module';
import { testAuthConfig, testHttpOptions } from '../support/service-settings';
// The process's port table, as the services bind it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { directSubmissionContextProviders, portsModule } from '@shellgrade/wiring';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];
type RateLimitsInput = NonNullable<NonNullable<VariantSpecInput['auth']>['rateLimits']>;

const SMALL: RateLimitsInput = {
  loginFailuresPerAccount: { points: 3, durationS: 600 },
  loginFailuresPerClient: { points: 5, durationS: 600 },
  enrolmentKeyFailuresPerUser: { points: 2, durationS: 600 },
};

async function startApp(dbUrl: string, rateLimits: RateLimitsInput): Promise<INestApplication> {
  const database = persistenceProviders({ url: dbUrl, poolSize: 5, idleTimeoutMs: 30_000 });
  const moduleRef = await Test.createTestingModule({
    // Loopback plays the variant's own proxy: X-Forwarded-For names the client, as HAProxy's would.
    imports: [portsModule([...database, ...directSubmissionContextProviders]), AuthModule.forRoot(testAuthConfig({ rateLimits, trustedProxies: ['loopback'] })), LeftoverApiModule],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>();
  configureHttpApp(app as NestExpressApplication, testHttpOptions());
  return app.init();
}

function expectTooMany(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('rate limits over HTTP (Nest app, real PostgreSQL)', () => {
  let db: TestDatabase;
  let seeded: SeedResult;
  let app: INestApplication;
  let server: ReturnType<INestApplication['getHttpServer']>;
  // Requests come from loopback, a trusted proxy: X-Forwarded-For names the client, as HAProxy would.
  const login = (email: string, password: string, client = '203.0.113.1') =>
    request(server).post('/api/user/login').set('X-Forwarded-For', client).send({ email, password });

  beforeAll(async () => {
    db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 30, teachers: 1, catalog, kdfCost: 4 });
    await pool.end();
    app = await startApp(db.url, SMALL);
    server = app.getHttpServer();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('failed logins of one account: 429 with Retry-After for a client that failed on it, even its right password; a client that has not is still checked', async () => {
    const email = 'student1@shellgrade.test';
    for (let i = 0; i < 3; i++) expect((await login(email, 'wrong', `203.0.113.${10 + i}`)).status).toBe(401);
    expectTooMany(await login(email, 'wrong', '203.0.113.12'));
    expectTooMany(await login(email, SEED_PASSWORDS.student, '203.0.113.12'));
    // The others' failures lock nobody out: a client that has not failed on the account logs in.
    expect((await login(email, SEED_PASSWORDS.student, '198.51.100.7')).status).toBe(200);
    // Other accounts are not affected.
    expect((await login('student2@shellgrade.test', SEED_PASSWORDS.student, '198.51.100.7')).status).toBe(200);
  });

  it('failed logins of one account from one client: 429 for that client and account only (keyed on client + account)', async () => {
    const client = '203.0.113.99';
    const limits = await startApp(db.url, { ...SMALL, loginFailuresPerAccount: { points: 50, durationS: 600 } });
    try {
      const attempt = (email: string, password: string, from: string) =>
        request(limits.getHttpServer()).post('/api/user/login').set('X-Forwarded-For', from).send({ email, password });
      for (let i = 0; i < 5; i++) expect((await attempt('student10@shellgrade.test', 'wrong', client)).status).toBe(401);
      expectTooMany(await attempt('student10@shellgrade.test', SEED_PASSWORDS.student, client));
      expect((await attempt('student10@shellgrade.test', SEED_PASSWORDS.student, '203.0.113.100')).status).toBe(200);
      // A spent bucket never locks a different account out of a shared address.
      expect((await attempt('student20@shellgrade.test', SEED_PASSWORDS.student, client)).status).toBe(200);
    } finally {
      await limits.close();
    }
  });

  it('never counts successful logins: many students from one client (a load test) all get in', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      for (const s of seeded.students.slice(20, 30)) statuses.push((await login(s.email, SEED_PASSWORDS.student, '192.0.2.1')).status);
    }
    expect(statuses).toEqual(new Array(30).fill(200));
  });

  it('wrong enrolment keys: 429 after the allowance, the right key included', async () => {
    const student = request.agent(server);
    await student.post('/api/user/login').set('X-Forwarded-For', '192.0.2.50').send({ email: 'student25@shellgrade.test', password: SEED_PASSWORDS.student }).expect(200);
    const enrol = (key: string) => student.post(`/api/business-session/${seeded.sessionId}/enrolments`).send({ enrolment_key: key });
    expect((await enrol('wrong-guess-1')).status).toBe(400);
    expect((await enrol('wrong-guess-2')).status).toBe(400);
    expectTooMany(await enrol('wrong-guess-3'));
    expectTooMany(await enrol('shellgrade-enrol'));
  });

  it('a right enrolment key gives its point back: enrolling again and again never spends the allowance', async () => {
    const student = request.agent(server);
    await student.post('/api/user/login').set('X-Forwarded-For', '192.0.2.51').send({ email: 'student27@shellgrade.test', password: SEED_PASSWORDS.student }).expect(200);
    const enrol = (key: string) => student.post(`/api/business-session/${seeded.sessionId}/enrolments`).send({ enrolment_key: key });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await enrol('shellgrade-enrol')).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await enrol('wrong-guess-1')).status).toBe(400); // one wrong guess left of the two after four right keys
  });

  it('wrong current passwords in a password change count as failed logins', async () => {
    const student = request.agent(server);
    const me = await student.post('/api/user/login').send({ email: 'student26@shellgrade.test', password: SEED_PASSWORDS.student }).expect(200);
    const change = (current: string) => student.patch(`/api/user/${me.body.user_id}`).send({ password: 'a-new-password-26', current_password: current });
    for (let i = 0; i < 3; i++) expect((await change(`guess-${i}`)).status).toBe(403);
    expectTooMany(await change(SEED_PASSWORDS.student));
    // The client that guessed (this one, no proxy hop) is refused a login too; one that did not guess is not.
    expectTooMany(await request(server).post('/api/user/login').send({ email: 'student26@shellgrade.test', password: SEED_PASSWORDS.student }));
    expect((await login('student26@shellgrade.test', SEED_PASSWORDS.student, '198.51.100.26')).status).toBe(200);
  });

  it('enabled: false turns every limit off (benchmark variants)', async () => {
    const open = await startApp(db.url, { ...SMALL, enabled: false });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await request(open.getHttpServer()).post('/api/user/login').send({ email: 'student29@shellgrade.test', password: 'wrong' })).status);
      expect(statuses).toEqual(new Array(6).fill(401));
    } finally {
      await open.close();
    }
  });
});

describe('rate limits with the redis store (real Redis): counters shared by every replica', () => {
  const redisUrl = () => {
    const url = new URL(loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL);
    url.pathname = '/13';
    return url.toString();
  };

  it('two replicas count into one window', async () => {
    const { rateLimits } = testAuthConfig({ rateLimits: { store: 'redis', submissionsPerStudent: { points: 3, durationS: 60 } } });
    const cfg: RateLimitConfig = { ...rateLimits, redisUrl: redisUrl() };
    const [a, b] = [new RateLimits(cfg), new RateLimits(cfg)];
    const userId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    try {
      await Promise.all([a.ready(), b.ready()]);
      await a.submission(userId);
      await b.submission(userId);
      await a.submission(userId);
      const refused = await b.submission(userId).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ kind: 'rate-limited' });
      expect((refused as DomainError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a submission refused by admission control (503) is given back: the retry it asks for is not a 429', async () => {
    const { rateLimits } = testAuthConfig({ rateLimits: { store: 'memory', submissionsPerStudent: { points: 2, durationS: 60 } } });
    const limits = new RateLimits(rateLimits);
    await limits.submission(7);
    await limits.submission(7); // refused by admission afterwards...
    await limits.refundSubmission(7); // ...so given back
    await limits.submission(7);
    await expect(limits.submission(7)).rejects.toMatchObject({ kind: 'rate-limited' });
    await limits.close();
  });
});
