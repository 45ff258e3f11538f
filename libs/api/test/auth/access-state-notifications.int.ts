/**
 * Replicas that hear the database's access-state notifications (libs/persistence
 * PgAccessStateChanges, libs/auth AccessStateWatcher) cache who may call for minutes, yet refuse a
 * logged-out session or an outdated token as soon as they hear of it; a lost listening connection
 * empties their caches. Over HTTP against real PostgreSQL, two replicas with caches of a minute:
 * without the notifications every refusal below would wait that minute.
 */
import { EventEmitter, once } from 'node:events';
import type { INestApplication } from '@nestjs/common';
import type { AccessStateListener, AuthConfig } from '@shellgrade/auth';
import { ACCESS_STATE_APPLICATION, createPool, PgAccessStateChanges } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
import type { Pool } from 'pg';
import request from 'supertest';
import { authApp } from '../support/auth-app';
import { cookie, WhoAmIController } from '../support/who-am-i';
import { wideRateLimits } from '../support/service-settings';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];


const authConfig: AuthConfig = {
  jwtSecret: 'access-state-notify-secret-0123456789',
  accessTtlSeconds: 900,
  refreshTtlSeconds: 3600,
  kdfCost: 4,
  secureCookies: false,
  refreshCookiePath: '/api/auth',
  tokenVersionCacheMs: 60_000,
  notifiedCacheMs: 600_000,
  identity: 'access-token',
  trustedProxies: [],
  rateLimits: wideRateLimits({ enabled: false, trialsInFlight: 1 }),
};

/** The real listener, with an event per thing it told the caches: the tests wait for those, not for time. */
class HeardChanges extends PgAccessStateChanges {
  readonly told = new EventEmitter();
  override watch(listener: AccessStateListener): Promise<void> {
    const told = this.told;
    return super.watch({
      account: (id) => (listener.account(id), told.emit('account', id)),
      session: (id) => (listener.session(id), told.emit('session', id)),
      all: () => (listener.all(), told.emit('all')),
      hearing: () => (listener.hearing(), told.emit('hearing')),
      deaf: () => (listener.deaf(), told.emit('deaf')),
    });
  }
  /** Resolves when `kind` was told about `id`. */
  async heard(kind: 'account' | 'session', id: number | string): Promise<void> {
    for (;;) if ((await once(this.told, kind))[0] === id) return;
  }
}


describe('access-state notifications: long caches, changes heard at once (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let replica: INestApplication;
  let other: INestApplication;
  let otherHears: HeardChanges;
  const queries = { count: 0 };

  const login = async (i: number, app = replica) => {
    const res = await request(app.getHttpServer()).post('/api/user/login').send({ email: studentEmail(i), password: SEED_PASSWORDS.student }).expect(200);
    return { id: res.body.user_id as number, access: cookie(res, 'access_token'), refresh: cookie(res, 'refresh_token') };
  };
  const whoami = (access: string, app: INestApplication) => request(app.getHttpServer()).get('/api/whoami').set('Authorization', `Bearer ${access}`);
  const sidOf = async (access: string, app: INestApplication) => (await whoami(access, app).expect(200)).body.sid as string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 5, idleTimeoutMs: 30_000 });
    await seed(pool, { students: 5, teachers: 0, catalog, kdfCost: 4 });
    // Every statement the replicas make goes through this pool's query: counted.
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<Pool['query']>) => (queries.count++, query(...args))) as Pool['query'];
    const replicaHears = new HeardChanges({ databaseUrl: db.url, checkEveryMs: 1_000 });
    otherHears = new HeardChanges({ databaseUrl: db.url, checkEveryMs: 1_000 });
    const replicaOf = async (changes: HeardChanges) => {
      const app = await authApp(pool, authConfig, { oneReadAccessState: true, accessStateChanges: changes, controllers: [WhoAmIController] });
      const hearing = once(changes.told, 'hearing');
      await app.init();
      await hearing;
      return app;
    };
    replica = await replicaOf(replicaHears);
    other = await replicaOf(otherHears);
  }, 60_000);

  afterAll(async () => {
    await replica?.close();
    await other?.close();
    await pool?.end();
    await db?.drop();
  });

  it("a login's first requests read nothing: the login just read the token version and made the session", async () => {
    const me = await login(1);
    const before = queries.count;
    await whoami(me.access, replica).expect(200);
    await whoami(me.access, replica).expect(200);
    expect(queries.count - before).toBe(0);
  });

  it('a logout on one replica is refused on the other as soon as it hears of it, though it had cached the session live', async () => {
    const me = await login(2);
    const sid = await sidOf(me.access, other); // cached live on the other replica, for up to 10 min
    const heard = otherHears.heard('session', sid);
    await request(replica.getHttpServer()).delete('/api/user/logout').set('Authorization', `Bearer ${me.access}`).expect(200);
    await heard;
    const refused = await whoami(me.access, other);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/session has ended/);
  });

  it('an account change made outside the services (SQL) outdates its access tokens on every replica once heard', async () => {
    const me = await login(3);
    await whoami(me.access, other).expect(200);
    const heard = otherHears.heard('account', me.id);
    await pool.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [me.id]);
    await heard;
    const refused = await whoami(me.access, other);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/outdated/);
  });

  it('a truncated table (a database reset) empties the caches: every session is read again', async () => {
    const me = await login(5);
    await whoami(me.access, other).expect(200);
    const heard = once(otherHears.told, 'all');
    await pool.query('TRUNCATE refresh_tokens');
    await heard;
    const refused = await whoami(me.access, other);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/session has ended/);
  });

  it('a lost listening connection empties the caches (the next request reads); listening again, changes are heard again', async () => {
    const me = await login(4);
    await whoami(me.access, other).expect(200);
    const deaf = once(otherHears.told, 'deaf');
    const hearing = once(otherHears.told, 'hearing');
    // Ends every listening backend of this database: both replicas lose their connection.
    await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [ACCESS_STATE_APPLICATION]);
    await deaf;
    const before = queries.count;
    await whoami(me.access, other).expect(200);
    expect(queries.count - before).toBe(1); // token version and session, read again in one round trip
    await hearing;
    const sid = await sidOf(me.access, other);
    const heard = otherHears.heard('session', sid);
    await request(replica.getHttpServer()).delete('/api/user/logout').set('Authorization', `Bearer ${me.access}`).expect(200);
    await heard;
    expect((await whoami(me.access, other)).status).toBe(401);
  });
});
