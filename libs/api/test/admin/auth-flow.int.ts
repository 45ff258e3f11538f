import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AuthModule } from '@shellgrade/auth';
import { configureHttpApp } from '@shellgrade/http';
import { createPool, persistenceProviders } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS } from '@shellgrade/admin-cli/seed';
import request from 'supertest';
import { LeftoverApiModule } from '../../src/admin/leftover-api.module';
import { testAuthConfig, testHttpOptions } from '../support/service-settings';
// The process's port table, as the services bind it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { directSubmissionContextProviders, portsModule } from '@shellgrade/wiring';

const catalog = [
  { slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] },
];
const STUDENT = { email: 'student1@shellgrade.test', password: SEED_PASSWORDS.student };

function cookiesOf(res: request.Response): Record<string, string> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  return Object.fromEntries((raw ?? []).map((c) => [c.split('=')[0]!, c]));
}
const valueOf = (cookie: string) => cookie.split(';')[0]!.split('=').slice(1).join('=');

describe('auth flow over HTTP (Nest app, real PostgreSQL)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let server: ReturnType<INestApplication['getHttpServer']>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    await seed(pool, { students: 2, teachers: 1, catalog, kdfCost: 4 });
    await pool.end();
    const database = persistenceProviders({ url: db.url, poolSize: 5, idleTimeoutMs: 30_000 });
    const moduleRef = await Test.createTestingModule({
      // CRUD routes registered BEFORE the auth ones on purpose: DELETE /api/user/:id must not
      // shadow DELETE /api/user/logout whatever order a composition root imports them in.
      // tokenVersionCacheMs 0: an account change holds on the next request (the cache delay has its unit test).
      imports: [portsModule([...database, ...directSubmissionContextProviders]), LeftoverApiModule, AuthModule.forRoot(testAuthConfig({ tokenVersionCacheMs: 0 }))],
    }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>();
    // As behind the variant's own proxy on loopback (HAProxy): its X-Forwarded-Proto is believed.
    configureHttpApp(app as NestExpressApplication, testHttpOptions({ corsOrigins: '*' }, { trustedProxies: ['loopback'] }));
    await app.init();
    server = app.getHttpServer();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('logs in: user body and httpOnly SameSite=Lax cookies', async () => {
    const res = await request(server).post('/api/user/login').send(STUDENT).expect(200);
    expect(res.body).toEqual({ user_id: expect.any(Number), email: STUDENT.email, firstname: 'Student', lastname: '1', role: 'student' });
    const cookies = cookiesOf(res);
    for (const name of ['access_token', 'refresh_token']) {
      expect(cookies[name]).toMatch(/HttpOnly/i);
      expect(cookies[name]).toMatch(/SameSite=Lax/i);
    }
    expect(cookies.access_token).toMatch(/Path=\/(;|$)/);
    // The refresh token travels to the refresh route only, never with every API call.
    expect(cookies.refresh_token).toMatch(/Path=\/api\/auth(;|$)/);
    // Plain HTTP here: not Secure (secureCookies 'auto').
    expect(cookies.refresh_token).not.toMatch(/Secure/i);
  });

  it('marks cookies Secure when the request came over TLS (X-Forwarded-Proto from a trusted proxy)', async () => {
    const res = await request(server).post('/api/user/login').set('X-Forwarded-Proto', 'https').send(STUDENT).expect(200);
    const cookies = cookiesOf(res);
    expect(cookies.access_token).toMatch(/Secure/i);
    expect(cookies.refresh_token).toMatch(/Secure/i);
  });

  it.each([
    ['a wrong password', { email: STUDENT.email, password: 'nope' }],
    ['an unknown email', { email: 'ghost@shellgrade.test', password: 'nope' }],
  ])('answers 401 problem+json for %s', async (_label, body) => {
    const res = await request(server).post('/api/user/login').send(body).expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, detail: 'invalid email or password' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it.each([{}, { email: 'x@y.z' }, { email: 42, password: 'x' }])('answers 400 for a malformed body %p', async (body) => {
    const res = await request(server).post('/api/user/login').send(body).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('cookie session: login → guarded route → verify 200 → logout → verify 401', async () => {
    const agent = request.agent(server);
    await agent.post('/api/user/login').send(STUDENT).expect(200);
    await agent.get('/api/user/me').expect(200);
    const verified = await agent.get('/api/auth/verify').expect(200);
    expect(cookiesOf(verified).access_token).toBeDefined();
    expect(verified.body.email).toBe(STUDENT.email);

    const out = await agent.delete('/api/user/logout').expect(200);
    expect(out.body).toEqual({ logged_out: true, revoked: true });
    expect(cookiesOf(out).access_token).toMatch(/Expires=Thu, 01 Jan 1970/);
    await agent.get('/api/auth/verify').expect(401);
    await agent.get('/api/user/me').expect(401);
  });

  it('a revoked refresh token stays revoked, and an access token alone never verifies', async () => {
    const login = await request(server).post('/api/user/login').send(STUDENT).expect(200);
    const { access_token: access, refresh_token: refresh } = cookiesOf(login);
    await request(server).delete('/api/user/logout').set('Cookie', refresh!.split(';')[0]!).expect(200);
    await request(server).get('/api/auth/verify').set('Cookie', refresh!.split(';')[0]!).expect(401);
    await request(server).get('/api/auth/verify').set('Cookie', access!.split(';')[0]!).expect(401);
    await request(server).get('/api/auth/verify').set('Authorization', `Bearer ${valueOf(access!)}`).expect(401);
  });

  it('bearer tokens: access token on guarded routes, refresh token on verify and logout', async () => {
    const login = await request(server).post('/api/user/login').send(STUDENT).expect(200);
    const access = valueOf(cookiesOf(login).access_token!);
    const refresh = valueOf(cookiesOf(login).refresh_token!);
    const me = await request(server).get('/api/user/me').set('Authorization', `Bearer ${access}`).expect(200);
    expect(me.body.email).toBe(STUDENT.email);
    await request(server).get('/api/user/me').set('Authorization', 'Bearer garbage').expect(401);
    await request(server).get('/api/auth/verify').set('Authorization', `Bearer ${refresh}`).expect(200);
    await request(server).delete('/api/user/logout').set('Authorization', `Bearer ${refresh}`).expect(200);
    await request(server).get('/api/auth/verify').set('Authorization', `Bearer ${refresh}`).expect(401);
  });

  it('one account, many concurrent sessions: logging one out leaves the others alive', async () => {
    const agents = Array.from({ length: 5 }, () => request.agent(server));
    await Promise.all(agents.map((a) => a.post('/api/user/login').send(STUDENT).expect(200)));
    await Promise.all(agents.map((a) => a.get('/api/auth/verify').expect(200)));
    await agents[0]!.delete('/api/user/logout').expect(200);
    await agents[0]!.get('/api/auth/verify').expect(401);
    const rest = await Promise.all(agents.slice(1).map((a) => a.get('/api/auth/verify')));
    expect(rest.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it('logout without a session is still 200', async () => {
    await request(server).delete('/api/user/logout').expect(200, { logged_out: true, revoked: false });
  });

  describe('refresh-token rotation and account changes', () => {
    const cookie = (res: request.Response, name: string) => cookiesOf(res)[name]!.split(';')[0]!;
    const loginAs = (who: { email: string; password: string }) => request(server).post('/api/user/login').send(who).expect(200);

    it('rotates the refresh token on verify; replaying a spent one revokes that login only', async () => {
      const login = await loginAs(STUDENT);
      const other = await loginAs(STUDENT);
      const first = cookie(login, 'refresh_token');
      const rotated = await request(server).get('/api/auth/verify').set('Cookie', first).expect(200);
      const second = cookie(rotated, 'refresh_token');
      expect(second).not.toBe(first);
      // The stolen copy of the first token comes back: 401, and the owner's current token dies with it.
      const replay = await request(server).get('/api/auth/verify').set('Cookie', first).expect(401);
      expect(replay.body.detail).toMatch(/reused/);
      await request(server).get('/api/auth/verify').set('Cookie', second).expect(401);
      // Another login of the same account is a family of its own.
      await request(server).get('/api/auth/verify').set('Cookie', cookie(other, 'refresh_token')).expect(200);
    });

    it('logout with the access cookie alone (the refresh cookie stays on /api/auth) ends the login', async () => {
      const login = await loginAs(STUDENT);
      await request(server).delete('/api/user/logout').set('Cookie', cookie(login, 'access_token')).expect(200, { logged_out: true, revoked: true });
      await request(server).get('/api/auth/verify').set('Cookie', cookie(login, 'refresh_token')).expect(401);
    });

    it('a password change needs the current password and ends the other sessions, not this one', async () => {
      const who = { email: 'student2@shellgrade.test', password: SEED_PASSWORDS.student };
      const mine = request.agent(server);
      const me = await mine.post('/api/user/login').send(who).expect(200);
      const elsewhere = await loginAs(who);
      const path = `/api/user/${me.body.user_id}`;
      await mine.patch(path).send({ password: 'a-new-password-1' }).expect(403);
      await mine.patch(path).send({ password: 'a-new-password-1', current_password: 'wrong' }).expect(403);
      await mine.patch(path).send({ password: 'a-new-password-1', current_password: who.password }).expect(200);
      // The other session: its access token and its refresh token both stop at once.
      await request(server).get('/api/user/me').set('Cookie', cookie(elsewhere, 'access_token')).expect(401);
      await request(server).get('/api/auth/verify').set('Cookie', cookie(elsewhere, 'refresh_token')).expect(401);
      // This session goes on (a fresh access cookie came with the answer); the new password works.
      await mine.get('/api/user/me').expect(200);
      await mine.get('/api/auth/verify').expect(200);
      await loginAs({ ...who, password: 'a-new-password-1' });
      await request(server).post('/api/user/login').send(who).expect(401);
    });

    it('a role change and an account deletion take effect before the access token expires', async () => {
      const admin = request.agent(server);
      await admin.post('/api/user/login').send({ email: 'admin@shellgrade.test', password: SEED_PASSWORDS.admin }).expect(200);
      const created = await admin.post('/api/users').send({ email: 'promoted@shellgrade.test', password: 'promoted-password' }).expect(201);
      const who = { email: 'promoted@shellgrade.test', password: 'promoted-password' };
      const login = await loginAs(who);
      const access = cookie(login, 'access_token');
      await request(server).get('/api/users?role=admin').set('Cookie', access).expect(200);
      await admin.patch(`/api/user/${created.body.user_id}`).send({ role: 'teacher' }).expect(200);
      await request(server).get('/api/user/me').set('Cookie', access).expect(401);
      // Refreshing gives a token with the new role.
      const refreshed = await request(server).get('/api/auth/verify').set('Cookie', cookie(login, 'refresh_token')).expect(200);
      expect(refreshed.body.role).toBe('teacher');
      const fresh = cookie(refreshed, 'access_token');
      await request(server).get('/api/user/me').set('Cookie', fresh).expect(200);
      await admin.delete(`/api/user/${created.body.user_id}`).expect(200);
      await request(server).get('/api/user/me').set('Cookie', fresh).expect(401);
    });
  });
});
