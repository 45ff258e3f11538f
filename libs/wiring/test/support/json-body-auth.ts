/**
 * A service that takes submissions reads their JSON only after the login check (libs/http
 * json-bodies.ts): a 10 MB SPA submission from someone not logged in (no credentials, a forged
 * bearer token, a forged cookie) is 401, and a student's on a teacher's route 403, with the body
 * never handed to JSON.parse; a logged-in student's SPA submission is parsed and accepted. One
 * suite, run by each service that serves POST /api/exercise-production against its own
 * composition root: the variant's spec, the real AuthGuard, real PostgreSQL (fresh, seeded).
 * "Never parsed" is observed, not timed: JSON.parse is watched, and the parser counter read.
 */
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
import { loadCatalog, loadSamples, PAPER_SLUG } from '@shellgrade/grading';
import { bodyLimitFor, PRE_AUTH_JSON_LIMIT_BYTES } from '@shellgrade/http';
import { parsedCount, spaSubmission as spaBody, watchJsonParse } from '@shellgrade/http/testing';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import request from 'supertest';
import { startTestApp } from './test-app';

// Built, never called here (the leftover's session reports read the exercise service).
const UNUSED_UPSTREAMS = { leftoverUrl: 'http://127.0.0.1:9', exerciseUrl: 'http://127.0.0.1:9' };

export function describeJsonBodyAuth(variant: string, service: 'monolith' | 'exercise', moduleFor: (cfg: ServiceConfig) => DynamicModule): void {
  describe(`${service} service (${variant}): JSON submissions are parsed only after the login check`, () => {
    let db: TestDatabase;
    let app: INestApplication;
    let seeded: SeedResult;
    let maxArchiveBytes: number;
    let tenMegabytes: string;
    /** The strings JSON.parse was given during a test. */
    const parsed = watchJsonParse();
    const largestParsed = parsed.largest;

    const loggedInStudent = async () => {
      const agent = request.agent(app.getHttpServer());
      await agent.post('/api/user/login').send({ email: seeded.students[0]!.email, password: SEED_PASSWORDS.student }).expect(200);
      return agent;
    };

    beforeAll(async () => {
      db = await createTestDatabase();
      const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
      seeded = await seed(pool, { students: 1, teachers: 0, catalog: await loadCatalog(), kdfCost: 4 });
      await pool.end();
      const base = loadVariant(variant);
      const spec = { ...base, auth: { ...base.auth, kdfCost: 4 } };
      maxArchiveBytes = spec.http.maxArchiveBytes;
      const cfg: ServiceConfig = { ...processConfigOf(spec, service, 0, { host: '127.0.0.1', port: 0, upstreams: UNUSED_UPSTREAMS }), connections: loadConnections({ ...process.env, DATABASE_URL: db.url }) };
      app = await startTestApp([moduleFor(cfg)], cfg);
      tenMegabytes = spaBody(seeded.csvExerciseId, seeded.students[0]!.statementId, new Uint8Array(800_000).fill(255));
    }, 120_000);

    afterAll(async () => {
      await app?.close();
      await db?.drop();
    });

    it('sends 10 MB, which the archive route would take from a logged-in student: only the login stops it', () => {
      expect(Buffer.byteLength(tenMegabytes)).toBeGreaterThan(10_000_000);
      expect(Buffer.byteLength(tenMegabytes)).toBeLessThan(bodyLimitFor(maxArchiveBytes));
    });

    it.each([
      ['no credentials', {}],
      ['a forged bearer token', { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJhY2Nlc3MifQ.forged' }],
      ['a forged access_token cookie', { Cookie: 'access_token=not-a-token' }],
    ])('refuses a 10 MB SPA submission with %s: 401 problem+json, the body never parsed', async (_name, headers: Record<string, string>) => {
      const before = await parsedCount('anonymous');
      const res = await request(app.getHttpServer()).post('/api/exercise-production').set({ 'Content-Type': 'application/json', ...headers }).send(tenMegabytes);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(largestParsed()).toBeLessThan(PRE_AUTH_JSON_LIMIT_BYTES);
      expect(await parsedCount('anonymous')).toBe(before);
    });

    it("refuses a student's 10 MB body on a teacher's route (the grader trial) with 403, the body never parsed", async () => {
      const student = await loggedInStudent();
      parsed.reset();
      const res = await student.post('/api/exercise-trial').set('Content-Type', 'application/json').send(tenMegabytes);
      expect(res.status).toBe(403);
      expect(largestParsed()).toBeLessThan(PRE_AUTH_JSON_LIMIT_BYTES);
    });

    it("parses and accepts a logged-in student's SPA JSON submission", async () => {
      const agent = await loggedInStudent();
      const body = spaBody(seeded.csvExerciseId, seeded.students[0]!.statementId, loadSamples(PAPER_SLUG).good);
      const before = await parsedCount('authenticated');
      const res = await agent.post('/api/exercise-production').set('Content-Type', 'application/json').send(body);
      expect([201, 202]).toContain(res.status);
      if (res.status === 201) expect(res.body.grade).toBe(100);
      expect(parsed.lengths()).toContain(body.length);
      expect(await parsedCount('authenticated')).toBe(before + 1);
    });
  });
}
