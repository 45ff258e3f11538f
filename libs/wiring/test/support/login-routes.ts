/**
 * Each service that logs users in serves login, verify and logout from its own composition root
 * (the routes are libs/api's AuthApiModule, over libs/auth's LOGIN_SESSIONS port,
 * imported beside AuthModule). One suite, run by each such service against its own module:
 * msa-1-2's spec, real PostgreSQL (fresh, seeded).
 */
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { seed, SEED_PASSWORDS } from '@shellgrade/admin-cli/seed';
import { loadCatalog } from '@shellgrade/grading';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { loadConnections, loadVariant, processConfigOf, type ServiceConfig } from '@shellgrade/variant';
import request from 'supertest';
import { startTestApp } from './test-app';

// Built, never called here (the leftover's session reports read the exercise service).
const UNUSED_UPSTREAMS = { leftoverUrl: 'http://127.0.0.1:9', exerciseUrl: 'http://127.0.0.1:9' };

export function describeLoginRoutes(service: 'exercise' | 'leftover', moduleFor: (cfg: ServiceConfig) => DynamicModule): void {
  describe(`${service} service: login routes`, () => {
    let db: TestDatabase;
    let app: INestApplication;

    beforeAll(async () => {
      db = await createTestDatabase();
      const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
      await seed(pool, { students: 1, teachers: 0, catalog: await loadCatalog(), kdfCost: 4 });
      await pool.end();
      const base = loadVariant('msa-1-2');
      const spec = { ...base, auth: { ...base.auth, kdfCost: 4 } };
      const cfg: ServiceConfig = { ...processConfigOf(spec, service, 0, { host: '127.0.0.1', port: 0, upstreams: UNUSED_UPSTREAMS }), connections: loadConnections({ DATABASE_URL: db.url }) };
      app = await startTestApp([moduleFor(cfg)], cfg);
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await db?.drop();
    });

    it('logs in, rotates the refresh token, logs out: the session is gone', async () => {
      const agent = request.agent(app.getHttpServer());
      const login = await agent.post('/api/user/login').send({ email: 'student1@shellgrade.test', password: SEED_PASSWORDS.student }).expect(200);
      expect(login.body).toMatchObject({ email: 'student1@shellgrade.test', role: 'student' });
      const refresh = String(login.headers['set-cookie']).match(/refresh_token=([^;]+)/)?.[1];
      expect(refresh).toBeTruthy();
      await request(app.getHttpServer()).get('/api/auth/verify').set('Authorization', `Bearer ${refresh}`).expect(200);
      await agent.delete('/api/user/logout').expect(200, { logged_out: true, revoked: true });
      await agent.post('/api/user/login').send({ email: 'student1@shellgrade.test', password: 'wrong' }).expect(401);
    });
  });
}
