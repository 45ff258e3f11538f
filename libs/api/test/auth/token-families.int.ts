/**
 * Logout and refresh-token reuse end the ACCESS tokens of their login too (libs/auth): otherwise
 * a stolen access token would keep working after the owner logged out, or after the theft was
 * detected by a reused refresh token, until it expired (15 min by default).
 * Over HTTP against real PostgreSQL; a second replica checks the family through its cache.
 */
import type { INestApplication } from '@nestjs/common';
import type { AuthConfig } from '@shellgrade/auth';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
import type { Pool } from 'pg';
import request from 'supertest';
import { authApp } from '../support/auth-app';
import { cookie, WhoAmIController } from '../support/who-am-i';
import { wideRateLimits } from '../support/service-settings';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];


function authConfig(tokenVersionCacheMs: number): AuthConfig {
  return {
    jwtSecret: 'token-families-secret-0123456789',
    accessTtlSeconds: 900,
    refreshTtlSeconds: 3600,
    kdfCost: 4,
    secureCookies: false,
    refreshCookiePath: '/api/auth',
    tokenVersionCacheMs,
    identity: 'access-token',
    trustedProxies: [],
    rateLimits: wideRateLimits({ enabled: false, trialsInFlight: 1 }),
  };
}


describe('logout and refresh reuse end the access tokens of the login (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let replica: INestApplication;
  let other: INestApplication;

  const server = (app: INestApplication = replica) => app.getHttpServer();
  const login = async (i: number) => {
    const res = await request(server()).post('/api/user/login').send({ email: studentEmail(i), password: SEED_PASSWORDS.student }).expect(200);
    return { access: cookie(res, 'access_token'), refresh: cookie(res, 'refresh_token') };
  };
  const whoami = (access: string, app?: INestApplication) => request(server(app)).get('/api/whoami').set('Authorization', `Bearer ${access}`);
  const verify = (refresh: string) => request(server()).get('/api/auth/verify').set('Authorization', `Bearer ${refresh}`);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 5, idleTimeoutMs: 30_000 });
    await seed(pool, { students: 5, teachers: 0, catalog, kdfCost: 4 });
    // The replica that serves logout and refresh caches like production (5 s); the other reads every time.
    // The first request on a replica reads token version and session in one round trip, as in the services.
    const replicaOf = async (cfg: AuthConfig) => (await authApp(pool, cfg, { oneReadAccessState: true, controllers: [WhoAmIController] })).init();
    replica = await replicaOf(authConfig(5_000));
    other = await replicaOf(authConfig(0));
  }, 60_000);

  afterAll(async () => {
    await replica?.close();
    await other?.close();
    await pool?.end();
    await db?.drop();
  });

  it("after logout, that login's access token is refused on every replica; the account's other logins keep working", async () => {
    const kept = await login(1);
    const ended = await login(1);
    expect((await whoami(ended.access)).status).toBe(200);
    expect((await whoami(ended.access, other)).status).toBe(200);
    await request(server()).delete('/api/user/logout').set('Authorization', `Bearer ${ended.access}`).expect(200);
    const refused = await whoami(ended.access);
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body.detail).toMatch(/session has ended/);
    expect((await whoami(ended.access, other)).status).toBe(401);
    expect((await whoami(kept.access)).status).toBe(200);
  });

  it('a reused refresh token ends every access token of its family: the thief’s and the owner’s', async () => {
    const first = await login(2);
    const rotated = await verify(first.refresh).expect(200);
    const next = { access: cookie(rotated, 'access_token'), refresh: cookie(rotated, 'refresh_token') };
    expect((await whoami(next.access)).status).toBe(200);
    // The first refresh token presented again (a stolen copy): the family is revoked...
    expect((await verify(first.refresh)).status).toBe(401);
    // ...and so is every access token issued to it.
    expect((await whoami(first.access)).status).toBe(401);
    expect((await whoami(next.access)).status).toBe(401);
    expect((await whoami(next.access, other)).status).toBe(401);
  });
});
