/**
 * Who failed logins slow down (memory store, unit test): an address spraying passwords across
 * accounts is refused after its address allowance, and strangers failing on an account never
 * lock its owner out. The real AuthService login path over RateLimits, with a stub credential
 * store that counts password checks (each one a hash in production). Real Redis:
 * login-limits.int.ts; over HTTP against a launched variant: test/login-limits.e2e.ts.
 */
import { DomainError } from '@shellgrade/domain';
import { AuthService } from '../src/auth.service';
import type { AuthConfig } from '../src/auth.config';
import { hashPassword } from '../src/password';
import type { Account, CredentialStore, RefreshTokenStore } from '../src/ports';
import { RateLimits } from '../src/rate-limits';
import type { RateLimitConfig } from '../src/rate-limits.config';
import type { TokenService } from '../src/jwt-tokens';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';

/** The variant spec's defaults (libs/variant spec.ts rateLimitsSchema). */
const DEFAULTS: RateLimitConfig = {
  enabled: true,
  store: 'memory',
  loginFailuresPerAccount: { points: 10, durationS: 900 },
  loginFailuresPerClient: { points: 100, durationS: 900 },
  loginFailuresPerAddress: { points: 30, durationS: 900 },
  enrolmentKeyFailuresPerUser: { points: 10, durationS: 900 },
  submissionsPerStudent: { points: 30, durationS: 60 },
  trialsPerAuthor: { points: 30, durationS: 600 },
  trialsInFlight: 2,
};

const RIGHT = 'right password';
const email = (i: number) => `student${i}@shellgrade.test`;

/** Accounts student1..60, every password RIGHT; `checked` counts the password checks that ran. */
async function loginService(cfg: RateLimitConfig = DEFAULTS) {
  const passwordHash = await hashPassword(RIGHT, 1);
  const counts = { checked: 0 };
  const accountOf = (mail: string): (Account & { passwordHash: string }) | null => {
    const m = /^student(\d+)@shellgrade\.test$/.exec(mail);
    return m && Number(m[1]) <= 60 ? { user: { id: Number(m[1]), email: mail, role: 'student' }, tokenVersion: 0, passwordHash } as Account & { passwordHash: string } : null;
  };
  const credentials = {
    findCredentials: async (mail: string) => (counts.checked++, accountOf(mail)),
    findAccount: async () => null,
    upgradePasswordHash: async () => true,
  } as unknown as CredentialStore;
  const refreshTokens = { insert: async () => undefined } as unknown as RefreshTokenStore;
  const tokens = { signRefresh: () => ({ token: 'r', jti: 'j', familyId: 'f', expiresAt: new Date() }), signAccess: () => 'a' } as unknown as TokenService;
  const authCfg = { kdfCost: 1 } as AuthConfig;
  const limits = new RateLimits(cfg);
  const auth = new AuthService(tokens, credentials, refreshTokens, authCfg, limits, new SessionFamilies({ familyLive: async () => true }, authCfg), new TokenVersions(credentials, authCfg));
  /** The login's outcome as the HTTP status it maps to. */
  const login = (mail: string, password: string, client: string) =>
    auth.login(mail, password, client).then(
      () => 200,
      (err: unknown) => (err instanceof DomainError && err.kind === 'rate-limited' ? 429 : err instanceof DomainError && err.kind === 'unauthenticated' ? 401 : Promise.reject(err)),
    );
  return { auth, login, counts, close: () => limits.close() };
}

describe('password spraying: one address across many accounts', () => {
  it('50 wrong passwords over 50 accounts from one address: 429 before the 50th, at most the address allowance (30) of passwords checked', async () => {
    const { login, counts, close } = await loginService();
    const statuses: number[] = [];
    for (let i = 1; i <= 50; i++) statuses.push(await login(email(i), 'Spring2026!', '203.0.113.9'));
    expect(statuses.slice(0, 30)).toEqual(new Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(new Array(20).fill(429));
    expect(counts.checked).toBe(30);
    await close();
  });

  it('refuses with a reason a student reads and a wait: too many failed logins from your address', async () => {
    const { auth, close } = await loginService({ ...DEFAULTS, loginFailuresPerAddress: { points: 2, durationS: 600 } });
    for (const i of [1, 2]) await expect(auth.login(email(i), 'wrong', '203.0.113.10')).rejects.toMatchObject({ kind: 'unauthenticated' });
    const refused = await auth.login(email(3), RIGHT, '203.0.113.10').catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'rate-limited', message: expect.stringMatching(/too many failed logins from your address/) });
    expect((refused as DomainError).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as DomainError).retryAfterSeconds).toBeLessThanOrEqual(600);
    // Another address is not affected.
    await expect(auth.login(email(3), RIGHT, '203.0.113.11')).resolves.toMatchObject({ accessToken: 'a' });
    await close();
  });

  it('never counts successful logins: 60 students logging in from one address (a class behind a NAT, a load test) all get in, twice', async () => {
    const { login, close } = await loginService();
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) for (let i = 1; i <= 60; i++) statuses.push(await login(email(i), RIGHT, '192.0.2.1'));
    expect(statuses).toEqual(new Array(120).fill(200));
    await close();
  });

  it('a class behind one address logging in all at once is never refused: logins in flight are not failures', async () => {
    const { login, close } = await loginService();
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => login(email(i + 1), RIGHT, '192.0.2.7')));
    expect(statuses).toEqual(new Array(60).fill(200));
    await close();
  });

  it('a concurrent spray overshoots only by what was in flight: once its failures fill the allowance, the address is refused', async () => {
    const { login, counts, close } = await loginService();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => login(email(i + 1), 'wrong', '203.0.113.12')));
    expect(burst.filter((s) => s === 401)).toHaveLength(counts.checked);
    const checkedInBurst = counts.checked;
    for (let i = 41; i <= 50; i++) expect(await login(email(i), 'wrong', '203.0.113.12')).toBe(429);
    expect(counts.checked).toBe(checkedInBurst);
    await close();
  });
});

describe('no lock-out by strangers: failures on an account slow down the clients that fail', () => {
  it('20 wrong passwords from address A, then the right password from address B: logged in', async () => {
    const { login, close } = await loginService();
    const fromA: number[] = [];
    for (let i = 0; i < 20; i++) fromA.push(await login(email(1), `guess-${i}`, '198.51.100.1'));
    expect(fromA).toEqual([...new Array(10).fill(401), ...new Array(10).fill(429)]);
    expect(await login(email(1), RIGHT, '198.51.100.2')).toBe(200);
    await close();
  });

  it('the client that failed is the one refused: A, past the account allowance, is refused even its right password', async () => {
    const { auth, close } = await loginService();
    for (let i = 0; i < 10; i++) await expect(auth.login(email(2), 'wrong', '198.51.100.3')).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(auth.login(email(2), RIGHT, '198.51.100.3')).rejects.toMatchObject({
      kind: 'rate-limited',
      message: expect.stringMatching(/too many failed logins for this account/),
    });
    await close();
  });

  it('a hot account gives each further address one guess: guessing from many addresses checks one password per address beyond the allowance', async () => {
    const { login, counts, close } = await loginService();
    for (let i = 0; i < 10; i++) expect(await login(email(3), 'wrong', '198.51.100.4')).toBe(401);
    const statuses: number[] = [];
    for (let a = 1; a <= 5; a++) for (let i = 0; i < 3; i++) statuses.push(await login(email(3), `wrong-${i}`, `192.0.2.${100 + a}`));
    expect(statuses).toEqual([401, 429, 429, 401, 429, 429, 401, 429, 429, 401, 429, 429, 401, 429, 429]);
    expect(counts.checked).toBe(15);
    await close();
  });

  it('40 concurrent wrong logins for one account from one client check at most the account allowance (10)', async () => {
    const { login, counts, close } = await loginService();
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(email(4), `wrong-${i}`, '198.51.100.5')));
    expect(counts.checked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - counts.checked);
    await close();
  });

  it('a right password gives its points back: the owner logging in again and again spends no allowance', async () => {
    const { login, close } = await loginService({ ...DEFAULTS, loginFailuresPerAccount: { points: 2, durationS: 600 }, loginFailuresPerAddress: { points: 2, durationS: 600 } });
    for (let i = 0; i < 5; i++) expect(await login(email(5), RIGHT, '198.51.100.6')).toBe(200);
    expect(await login(email(5), 'wrong', '198.51.100.6')).toBe(401);
    expect(await login(email(5), 'wrong', '198.51.100.6')).toBe(401);
    expect(await login(email(5), RIGHT, '198.51.100.6')).toBe(429);
    await close();
  });
});
