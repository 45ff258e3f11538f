/**
 * The spec schema holds the one default of every auth and HTTP-edge tunable (issue 14 item 1):
 * libs/auth and libs/http have none, so these values are what every process runs with.
 */
import { authSchema, httpSchema, validateVariant, type VariantSpecInput } from '../src';

const monolith = (replicas: number, extra: Partial<VariantSpecInput> = {}) =>
  validateVariant({ name: 'd', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: replicas }, ...extra });

describe('auth and HTTP-edge defaults live in the spec', () => {
  it('auth: tokens, cookies, secret policy, rate limits', () => {
    expect(authSchema.parse({})).toEqual({
      accessTtlS: 900,
      refreshTtlS: 604_800,
      kdfCost: 14,
      secureCookies: 'auto',
      refreshCookiePath: '/api/auth',
      tokenVersionCacheMs: 5_000,
      secretPolicy: 'auto',
      rateLimits: {
        enabled: true,
        loginFailuresPerAccount: { points: 10, durationS: 900 },
        loginFailuresPerClient: { points: 100, durationS: 900 },
        enrolmentKeyFailuresPerUser: { points: 10, durationS: 900 },
        submissionsPerStudent: { points: 30, durationS: 60 },
      },
    });
  });

  it('http: no CORS, 1 MiB archives, operational endpoints for internal callers', () => {
    expect(httpSchema.parse({})).toEqual({ corsOrigins: '', maxArchiveBytes: 1024 * 1024, opsAccess: 'internal' });
  });

  it('accepts true, false and auto for secure cookies', () => {
    for (const secureCookies of [true, false, 'auto'] as const) expect(authSchema.parse({ secureCookies }).secureCookies).toBe(secureCookies);
  });
});

describe('rate-limit store: shared counters as soon as a limit is checked by several replicas', () => {
  it('one replica of every rate-limited role: memory', () => {
    expect(monolith(1).auth.rateLimits.store).toBe('memory');
    expect(validateVariant({ name: 'd', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 4, leftover: 1, exercise: 1 } }).auth.rateLimits.store).toBe(
      'memory',
    );
  });

  it('several monolith, leftover or exercise replicas: redis', () => {
    expect(monolith(2).auth.rateLimits.store).toBe('redis');
    expect(validateVariant({ name: 'd', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 1, leftover: 1, exercise: 2 } }).auth.rateLimits.store).toBe(
      'redis',
    );
  });

  it('an explicit store wins; memory with several replicas only while the limits are off', () => {
    expect(monolith(1, { auth: { rateLimits: { store: 'redis' } } }).auth.rateLimits.store).toBe('redis');
    expect(() => monolith(2, { auth: { rateLimits: { store: 'memory' } } })).toThrow(/auth\.rateLimits\.store: memory counters are per process/);
    expect(monolith(2, { auth: { rateLimits: { enabled: false, store: 'memory' } } }).auth.rateLimits).toMatchObject({ enabled: false, store: 'memory' });
  });
});
