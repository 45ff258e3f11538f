/**
 * Accounts hashed with scrypt (before argon2id became the secure default) keep
 * logging in, and their first good login stores argon2id in place of the scrypt hash — over HTTP
 * against real PostgreSQL. A wrong password upgrades nothing; a paper-faithful (cheap) cost
 * never downgrades; the upgrade is not a password change (access tokens stay valid).
 */
import type { INestApplication } from '@nestjs/common';
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import type { AuthConfig } from '@shellgrade/auth';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
import type { Pool } from 'pg';
import request from 'supertest';
import { authApp } from '../support/auth-app';
import { wideRateLimits } from '../support/service-settings';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];

function authConfig(kdfCost: number): AuthConfig {
  return {
    jwtSecret: 'password-upgrade-secret-0123456789',
    accessTtlSeconds: 900,
    refreshTtlSeconds: 3600,
    kdfCost,
    secureCookies: false,
    refreshCookiePath: '/api/auth',
    tokenVersionCacheMs: 0,
    identity: 'access-token',
    trustedProxies: [],
    rateLimits: wideRateLimits({ enabled: false, trialsInFlight: 1 }),
  };
}

describe('scrypt hashes are upgraded to argon2id at the next good login (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let secure: INestApplication;
  let paperFaithful: INestApplication;

  const login = (app: INestApplication, i: number, password: string) => request(app.getHttpServer()).post('/api/user/login').send({ email: studentEmail(i), password });
  const stored = async (i: number) =>
    (await pool.query<{ password_hash: string; token_version: number }>('SELECT password_hash, token_version FROM users WHERE email = $1', [studentEmail(i)])).rows[0]!;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 5, idleTimeoutMs: 30_000 });
    // Seeded at a cheap cost: scrypt hashes, as every account stored before the switch.
    await seed(pool, { students: 4, teachers: 0, catalog, kdfCost: 4 });
    secure = await (await authApp(pool, authConfig(14))).init();
    paperFaithful = await (await authApp(pool, authConfig(1))).init();
  }, 60_000);

  afterAll(async () => {
    await secure?.close();
    await paperFaithful?.close();
    await pool?.end();
    await db?.drop();
  });

  it('the first good login replaces the scrypt hash by argon2id; the password and the token version stay', async () => {
    const before = await stored(1);
    expect(before.password_hash).toMatch(/^scrypt\$4\$/);
    await login(secure, 1, SEED_PASSWORDS.student).expect(200);
    const after = await stored(1);
    expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(after.token_version).toBe(before.token_version);
    await login(secure, 1, SEED_PASSWORDS.student).expect(200);
    expect((await stored(1)).password_hash).toBe(after.password_hash);
    await login(secure, 1, 'not the password').expect(401);
  });

  it('an argon2id hash of another OWASP row (19 MiB × 2, the secure default before 7 MiB × 5) is kept: equal strength', async () => {
    const earlier = await argon2Hash(SEED_PASSWORDS.student, { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await pool.query('UPDATE users SET password_hash = $2 WHERE email = $1', [studentEmail(4), earlier]);
    await login(secure, 4, SEED_PASSWORDS.student).expect(200);
    await login(secure, 4, SEED_PASSWORDS.student).expect(200);
    expect((await stored(4)).password_hash).toBe(earlier);
  });

  it('a wrong password upgrades nothing', async () => {
    const before = (await stored(2)).password_hash;
    await login(secure, 2, 'not the password').expect(401);
    expect((await stored(2)).password_hash).toBe(before);
  });

  it('a paper-faithful cost verifies argon2id hashes and never downgrades them, nor touches scrypt ones', async () => {
    await login(secure, 3, SEED_PASSWORDS.student).expect(200);
    const upgraded = (await stored(3)).password_hash;
    await login(paperFaithful, 3, SEED_PASSWORDS.student).expect(200);
    expect((await stored(3)).password_hash).toBe(upgraded);
    const untouched = (await stored(2)).password_hash;
    await login(paperFaithful, 2, SEED_PASSWORDS.student).expect(200);
    expect((await stored(2)).password_hash).toBe(untouched);
  });
});
