/**
 * The spec schema holds the one default of every auth, HTTP-edge and grader tunable:
 * libs/auth, libs/http and libs/grading have none, so these values are what every process runs with.
 */
import { archiveBoundsOf, authSchema, graderSchema, httpSchema, loadConnections, maxConcurrentGradings, notifiedCacheMsOf, rateLimitStoreOf, validateVariant, variantServers, warmPoolSize, type VariantSpecInput } from '../src';

const monolith = (replicas: number, extra: Partial<VariantSpecInput> = {}) =>
  validateVariant({ name: 'd', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: replicas }, ...extra });

describe('auth, HTTP-edge and grader defaults live in the spec', () => {
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
        loginFailuresPerAddress: { points: 30, durationS: 900 },
        enrolmentKeyFailuresPerUser: { points: 10, durationS: 900 },
        submissionsPerStudent: { points: 30, durationS: 60 },
        trialsPerAuthor: { points: 30, durationS: 600 },
        trialsInFlight: 2,
      },
    });
  });

  it('http: no CORS, 1 MiB archives, operational endpoints for internal callers, a listen backlog of 4096', () => {
    expect(httpSchema.parse({})).toEqual({
      corsOrigins: '',
      maxArchiveBytes: 1024 * 1024,
      opsAccess: 'internal',
      keepAliveMs: 65_000,
      requestTimeoutMs: 120_000,
      listenBacklog: 4096,
    });
  });

  it('grader: per-grading limits, cgroups, output bound; concurrency left to the machine', () => {
    const MiB = 1024 * 1024;
    expect(graderSchema.parse({})).toEqual({
      exec: 'async',
      isolation: 'bwrap',
      timeoutMs: 10_000,
      nice: 0,
      limits: {
        cpuSeconds: 10,
        fileSizeBytes: 16 * MiB,
        processes: 64,
        memoryBytes: 512 * MiB,
        gradingMemoryBytes: 1024 * MiB,
        jobBytes: 128 * MiB,
        openFiles: 256,
        tmpBytes: 16 * MiB,
        workBytes: 64 * MiB,
      },
      cgroups: 'auto',
      maxOutputBytes: 256 * 1024,
      archive: { maxUncompressedBytes: 32 * MiB, maxEntries: 2000, maxCompressionRatio: 200 },
    });
  });

  it('grader: unset concurrency and warm pool resolve per CPU (4 gradings, 1 warm sandbox each)', () => {
    expect(maxConcurrentGradings({}, 2)).toBe(8);
    expect(maxConcurrentGradings({ maxConcurrent: 3 }, 2)).toBe(3);
    expect(warmPoolSize({}, 2)).toBe(2);
    expect(warmPoolSize({ poolSize: 5 }, 2)).toBe(5);
  });

  it('accepts true, false and auto for secure cookies', () => {
    for (const secureCookies of [true, false, 'auto'] as const) expect(authSchema.parse({ secureCookies }).secureCookies).toBe(secureCookies);
  });
});

describe('rate-limit store: shared counters where a role checks limits on several replicas', () => {
  const msa = (replicas: { gateway: number; leftover: number; exercise: number }) =>
    validateVariant({ name: 'd', description: 'x', topology: 'msa', dispatch: 'inline', replicas });

  it('one replica of every rate-limited role: memory everywhere, and no Redis to start', () => {
    expect(rateLimitStoreOf(monolith(1), 'monolith')).toBe('memory');
    const spec = msa({ gateway: 4, leftover: 1, exercise: 1 });
    expect([rateLimitStoreOf(spec, 'leftover'), rateLimitStoreOf(spec, 'exercise')]).toEqual(['memory', 'memory']);
    expect(variantServers(spec)).not.toContain('redis');
  });

  it('several replicas of a role: redis for that role only (each counter is checked by one role)', () => {
    expect(rateLimitStoreOf(monolith(2), 'monolith')).toBe('redis');
    const spec = msa({ gateway: 1, leftover: 1, exercise: 2 });
    // The single leftover checks every login: its memory counters are exact; the two exercise replicas share theirs.
    expect([rateLimitStoreOf(spec, 'leftover'), rateLimitStoreOf(spec, 'exercise')]).toEqual(['memory', 'redis']);
    expect(variantServers(spec)).toContain('redis');
  });

  it('an explicit store wins for every role; memory with several replicas only while the limits are off', () => {
    expect(rateLimitStoreOf(monolith(1, { auth: { rateLimits: { store: 'redis' } } }), 'monolith')).toBe('redis');
    expect(rateLimitStoreOf(validateVariant({ ...msa({ gateway: 1, leftover: 1, exercise: 2 }), auth: { rateLimits: { store: 'redis' } } }), 'leftover')).toBe('redis');
    expect(() => monolith(2, { auth: { rateLimits: { store: 'memory' } } })).toThrow(/auth\.rateLimits\.store: memory counters are per process/);
    expect(monolith(2, { auth: { rateLimits: { enabled: false, store: 'memory' } } }).auth.rateLimits).toMatchObject({ enabled: false, store: 'memory' });
  });
});

describe('sandbox root default', () => {
  it('is a root-owned place, not the world-writable /tmp where anyone could create it first', () => {
    const root = loadConnections({}).SG_SANDBOX_ROOT;
    expect(root).toBe('/var/lib/shellgrade/sandbox');
    expect(root.startsWith('/tmp') || root.startsWith('/var/tmp') || root.startsWith('/dev/shm')).toBe(false);
  });
});

describe('adapter tunables live in the spec (no second default in an adapter)', () => {
  const spec = monolith(1);
  it('archive bounds: the compressed size at the HTTP edge, the rest in grader.archive', () => {
    expect(archiveBoundsOf(spec)).toEqual({ maxCompressedBytes: 1024 * 1024, maxUncompressedBytes: 32 * 1024 * 1024, maxEntries: 2000, maxCompressionRatio: 200 });
  });
  it('gateway upstream pool, database pool, inline sweep', () => {
    expect(spec.gateway).toMatchObject({ upstreamMaxSockets: 1024, upstreamMaxFreeSockets: 64, downCooldownMs: 1_000 });
    expect(spec.database).toEqual({ pool: 10, idleTimeoutMs: 30_000, synchronousCommit: 'on' });
    expect(spec.interruptedGradings).toEqual({ sweepEveryMs: 15_000, sweepBatch: 20 });
  });
  it('database.synchronousCommit: on or off, nothing else', () => {
    expect(monolith(1, { database: { synchronousCommit: 'off' } }).database.synchronousCommit).toBe('off');
    expect(() => monolith(1, { database: { synchronousCommit: 'local' as 'off' } })).toThrow(/synchronousCommit/);
  });
  it('RabbitMQ connection: heartbeat, reconnect, start-up wait, close grace', () => {
    expect(spec.broker.rabbitmq).toEqual({ heartbeatS: 5, reconnectS: 1, connectTimeoutMs: 30_000, closeGraceMs: 10_000 });
  });
});

describe('access-state notifications where more than one process authenticates', () => {
  const of = (replicas: Record<string, number>, notifiedCacheMs?: number) => notifiedCacheMsOf({ replicas, auth: { notifiedCacheMs } });
  it('off for a lone monolith (it makes every change itself), on for a replicated monolith and for MSA', () => {
    expect(of({ monolith: 1 })).toBe(0);
    expect(of({ monolith: 2 })).toBe(300_000);
    expect(of({ gateway: 1, leftover: 1, exercise: 1 })).toBe(300_000);
  });
  it("the spec's own value wins, 0 included", () => {
    expect(of({ monolith: 1 }, 60_000)).toBe(60_000);
    expect(of({ monolith: 2 }, 0)).toBe(0);
  });
});
