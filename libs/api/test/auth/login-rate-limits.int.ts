/**
 * Login rate limits that hold (libs/auth), over HTTP against real PostgreSQL and Redis:
 * - the point is taken BEFORE the password check: N concurrent wrong logins for one account
 *   check at most the allowance's passwords (the checks are held at a barrier until every request
 *   has either reached its password check or been answered, so nothing depends on timing);
 * - X-Forwarded-For is believed only from the variant's own proxies (AuthConfig.trustedProxies);
 * - the client bucket is keyed on client + account: one account's spent bucket does not lock a
 *   different account out of the same client;
 * - one address failing across many accounts (password spraying) is refused after its address
 *   allowance, and strangers failing on an account never lock out its owner (a client that has
 *   not failed on it is still checked), with the counters in Redis shared by two replicas.
 */
import type { INestApplication } from '@nestjs/common';
import { createPool, PgUserRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
// Tests take the servers' addresses from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections } from '@shellgrade/variant';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import request from 'supertest';
import { RateLimits, type AuthConfig, type CredentialStore, type RateLimitConfig } from '@shellgrade/auth';
import { authApp } from '../support/auth-app';
import { wideRateLimits } from '../support/service-settings';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];
/** A Redis database of this test file's own (flushed at start: counters live 10 minutes). */
const REDIS_DB = 11;

function redisUrl(): string {
  const url = new URL(loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL);
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
}

function authConfig(rateLimits: Partial<RateLimitConfig>, trustedProxies: string[]): AuthConfig {
  return {
    jwtSecret: 'login-rate-limits-secret-0123456789',
    accessTtlSeconds: 60,
    refreshTtlSeconds: 3600,
    kdfCost: 4,
    secureCookies: false,
    refreshCookiePath: '/api/auth',
    tokenVersionCacheMs: 0,
    identity: 'access-token',
    trustedProxies,
    rateLimits: wideRateLimits({ trialsInFlight: 1, ...rateLimits }),
  } as AuthConfig;
}

/**
 * The real credential store, with every password check held until `release()`: what reached
 * the check is counted, and a test opens the barrier once every request is accounted for.
 */
class HeldPasswordChecks implements CredentialStore {
  checked = 0;
  private open = Promise.resolve();
  private release: () => void = () => undefined;
  private arrivals: () => void = () => undefined;

  constructor(private readonly inner: CredentialStore) {}

  /** From now on, checks wait; `onArrival` runs as each arrives. */
  hold(onArrival: () => void): void {
    this.open = new Promise<void>((resolve) => (this.release = resolve));
    this.arrivals = onArrival;
  }

  letThrough(): void {
    this.release();
    this.arrivals = () => undefined;
  }

  async findCredentials(email: string) {
    this.checked++;
    this.arrivals();
    await this.open;
    return this.inner.findCredentials(email);
  }

  findAccount(id: number) {
    return this.inner.findAccount(id);
  }

  upgradePasswordHash(userId: number, from: string, to: string) {
    return this.inner.upgradePasswordHash(userId, from, to);
  }
}

async function startApp(pool: Pool, cfg: AuthConfig, credentials: CredentialStore): Promise<{ app: INestApplication; url: string }> {
  const app = await authApp(pool, cfg, { credentials });
  await app.listen(0, '127.0.0.1');
  // Until Redis is connected the per-process insurance limiter counts: start from the shared counters.
  await app.get(RateLimits).ready();
  return { app, url: await app.getUrl() };
}

describe('login rate limits that hold (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  const apps: INestApplication[] = [];

  async function app(cfg: AuthConfig, credentials: CredentialStore = new PgUserRepository(pool)): Promise<string> {
    const started = await startApp(pool, cfg, credentials);
    apps.push(started.app);
    return started.url;
  }

  const login = (url: string, email: string, password: string, forwardedFor?: string) => {
    const req = request(url).post('/api/user/login');
    return (forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req).send({ email, password });
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 5, idleTimeoutMs: 30_000 });
    await seed(pool, { students: 120, teachers: 0, catalog, kdfCost: 4 });
    const redis = new Redis(redisUrl());
    await redis.flushdb();
    redis.disconnect();
  }, 60_000);

  afterAll(async () => {
    for (const a of apps) await a.close();
    await pool?.end();
    await db?.drop();
  });

  it.each(['redis', 'memory'] as const)(
    '40 concurrent wrong logins for one account from 4 addresses check at most the allowance (10) of passwords, plus the one guess of each address (%s store)',
    async (store) => {
      const N = 40;
      const ALLOWANCE = 10;
      const ADDRESSES = 4;
      const email = studentEmail(store === 'redis' ? 1 : 2);
      const held = new HeldPasswordChecks(new PgUserRepository(pool));
      const url = await app(
        authConfig({ store, redisUrl: redisUrl(), loginFailuresPerAccount: { points: ALLOWANCE, durationS: 600 } }, ['loopback']),
        held,
      );
      let answered = 0;
      const everyoneAccountedFor = () => {
        if (held.checked + answered === N) held.letThrough();
      };
      held.hold(everyoneAccountedFor);
      const statuses = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          login(url, email, `wrong-${i}`, `198.51.100.${(i % ADDRESSES) + 1}`).then((res) => {
            if (res.status === 429) {
              answered++;
              everyoneAccountedFor();
            }
            return res.status;
          }),
        ),
      );
      console.log(`${N} concurrent wrong logins from ${ADDRESSES} addresses → ${held.checked} passwords checked (allowance ${ALLOWANCE}, ${store} store)`);
      // A client that has not failed on the account yet is checked (no lock-out by strangers): one guess per address beyond the allowance.
      expect(held.checked).toBeLessThanOrEqual(ALLOWANCE + ADDRESSES);
      expect(statuses.filter((s) => s === 401)).toHaveLength(held.checked);
      expect(statuses.filter((s) => s === 429)).toHaveLength(N - held.checked);
    },
    30_000,
  );

  it('a spoofed X-Forwarded-For from a caller that is not one of the variant proxies does not change the bucket', async () => {
    // This process has no proxy in front: the loopback caller is the client, whatever it claims.
    const url = await app(authConfig({ loginFailuresPerClient: { points: 3, durationS: 600 } }, []));
    const email = studentEmail(3);
    for (let i = 1; i <= 3; i++) expect((await login(url, email, 'wrong', `203.0.113.${i}`)).status).toBe(401);
    const spoofed = await login(url, email, 'wrong', '203.0.113.200');
    expect(spoofed.status).toBe(429);
    expect(spoofed.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(spoofed.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("only the variant's own proxies are believed, not every private range: a client on a private network cannot name itself", async () => {
    const url = await app(authConfig({ loginFailuresPerClient: { points: 2, durationS: 600 } }, ['loopback']));
    const email = studentEmail(4);
    // The proxy (loopback, trusted) appended the real client 10.1.2.3, a student on a private
    // network; the entries before it are what that student wrote into its own request.
    expect((await login(url, email, 'wrong', '203.0.113.1, 10.1.2.3')).status).toBe(401);
    expect((await login(url, email, 'wrong', '203.0.113.2, 10.1.2.3')).status).toBe(401);
    expect((await login(url, email, 'wrong', '203.0.113.3, 10.1.2.3')).status).toBe(429);
    // Another client behind the same proxy has a bucket of its own.
    expect((await login(url, email, 'wrong', '10.1.2.4')).status).toBe(401);
  });

  it("a spent client bucket does not lock a different account's correct password out of that client", async () => {
    const url = await app(authConfig({ loginFailuresPerClient: { points: 3, durationS: 600 } }, ['loopback']));
    const client = '203.0.113.77';
    for (let i = 0; i < 3; i++) expect((await login(url, studentEmail(5), 'wrong', client)).status).toBe(401);
    expect((await login(url, studentEmail(5), SEED_PASSWORDS.student, client)).status).toBe(429);
    expect((await login(url, studentEmail(6), SEED_PASSWORDS.student, client)).status).toBe(200);
  });

  it('a successful login gives its point back: many right logins of one account never spend its allowance', async () => {
    const url = await app(authConfig({ loginFailuresPerAccount: { points: 2, durationS: 600 } }, ['loopback']));
    const email = studentEmail(7);
    const statuses = await Promise.all(Array.from({ length: 2 }, () => login(url, email, SEED_PASSWORDS.student).then((r) => r.status)));
    expect(statuses).toEqual([200, 200]);
    for (let i = 0; i < 5; i++) expect((await login(url, email, SEED_PASSWORDS.student)).status).toBe(200);
    expect((await login(url, email, 'wrong')).status).toBe(401);
    expect((await login(url, email, 'wrong')).status).toBe(401);
    expect((await login(url, email, SEED_PASSWORDS.student)).status).toBe(429);
  });

  describe.each(['redis', 'memory'] as const)('the spec defaults (%s store, two replicas sharing the counters when redis)', (store) => {
    const defaults = { store, redisUrl: redisUrl(), loginFailuresPerAccount: { points: 10, durationS: 900 }, loginFailuresPerClient: { points: 100, durationS: 900 }, loginFailuresPerAddress: { points: 30, durationS: 900 } };
    /** Each store its own accounts and addresses: the Redis counters outlive an app. */
    const base = store === 'redis' ? 0 : 60;
    let replicas: string[];

    beforeAll(async () => {
      const cfg = authConfig(defaults, ['loopback']);
      // One process for memory counters (they are per process), two sharing Redis ones.
      replicas = store === 'redis' ? [await app(cfg), await app(cfg)] : [await app(cfg)];
    });
    const replica = (i: number) => replicas[i % replicas.length]!;

    it('50 wrong passwords over 50 accounts from one address: 429 before the 50th (the address allowance, 30, then refused)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) statuses.push((await login(replica(i), studentEmail(base + 11 + i), 'Spring2026!', '203.0.113.150')).status);
      expect(statuses.slice(0, 30)).toEqual(new Array(30).fill(401));
      expect(statuses.slice(30)).toEqual(new Array(20).fill(429));
      const refused = await login(replica(0), studentEmail(base + 61), SEED_PASSWORDS.student, '203.0.113.150');
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(refused.body.detail).toMatch(/too many failed logins from your address/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('20 wrong passwords from address A, then the right password from address B: 200 (strangers cannot lock an account)', async () => {
      const email = studentEmail(base + 8);
      const fromA: number[] = [];
      for (let i = 0; i < 20; i++) fromA.push((await login(replica(i), email, `guess-${i}`, '198.51.100.200')).status);
      expect(fromA).toEqual([...new Array(10).fill(401), ...new Array(10).fill(429)]);
      expect((await login(replica(1), email, SEED_PASSWORDS.student, '198.51.100.201')).status).toBe(200);
      // A, which failed, is the one held back: even its right password waits.
      expect((await login(replica(0), email, SEED_PASSWORDS.student, '198.51.100.200')).status).toBe(429);
    });
  });
});
