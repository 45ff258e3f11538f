import {
  authSchema,
  decodeProcessConfig,
  loadConnections,
  loadVariant,
  PROCESS_ENV,
  processConfigOf,
  validateVariant,
  variantProcesses,
  type ServiceConfig,
  type VariantSpecInput,
} from '@shellgrade/variant';
import { authConfigOf, gatewayConfigOf, graderOptionsOf, httpOptionsOf, identityOf, listenAddressOf } from '../src';
import { bodyLimitFor } from '@shellgrade/http';

const msa: VariantSpecInput = { name: 'settings', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 2, leftover: 1, exercise: 2 } };

function serviceConfig(spec: VariantSpecInput, role: ServiceConfig['role'], env: NodeJS.ProcessEnv = {}): ServiceConfig {
  const upstreams = { leftoverUrl: 'http://127.0.0.1:3200/', exerciseUrl: 'http://127.0.0.1:3300,http://127.0.0.1:3301' };
  return { ...processConfigOf(validateVariant(spec), role, 1, { host: '127.0.0.1', port: 3101, upstreams }), connections: loadConnections(env) };
}

describe('listenAddressOf', () => {
  it("listens where the launcher says, with the spec's backlog: 4096 unless the spec sets one", () => {
    expect(listenAddressOf(serviceConfig(msa, 'gateway'))).toEqual({ host: '127.0.0.1', port: 3101, backlog: 4096 });
    expect(listenAddressOf(serviceConfig({ ...msa, http: { listenBacklog: 128 } }, 'exercise')).backlog).toBe(128);
  });
});

describe('gatewayConfigOf', () => {
  it('reads upstream replica lists, timeouts, CORS origins and the replica index off the process config', () => {
    const cfg = serviceConfig({ ...msa, gateway: { upstreamTimeoutMs: 1500, pattern: 'aggregation' }, http: { corsOrigins: 'http://localhost:5173' } }, 'gateway');
    expect(gatewayConfigOf(cfg)).toEqual({
      replica: 1,
      pattern: 'aggregation',
      exerciseUrls: ['http://127.0.0.1:3300', 'http://127.0.0.1:3301'],
      leftoverUrls: ['http://127.0.0.1:3200'],
      upstreamTimeoutMs: 1500,
      upstreamMaxSockets: 1024,
      upstreamMaxFreeSockets: 64,
      corsOrigins: 'http://localhost:5173',
      opsAccess: 'internal',
      trustedProxies: ['loopback'], // two gateways: HAProxy in front
      downCooldownMs: 1000,
      clientKeepAliveMs: 65_000,
    });
  });

  it("keeps X-Request-Start from the variant's own proxies only: HAProxy when it fronts the gateways, else nobody", () => {
    expect(gatewayConfigOf(serviceConfig({ ...msa, replicas: { gateway: 1, leftover: 1, exercise: 2 } }, 'gateway')).trustedProxies).toEqual([]);
    expect(gatewayConfigOf(serviceConfig({ ...msa, replicas: { gateway: 2, leftover: 1, exercise: 2 }, entry: 'haproxy' }, 'gateway')).trustedProxies).toEqual(['loopback']);
  });

  it('transport grpc: hands the gateway the gRPC targets and the body limit; refuses to start without targets', () => {
    const cfg = serviceConfig({ ...msa, transport: 'grpc', http: { maxArchiveBytes: 512 } }, 'gateway');
    const targets = { leftoverGrpc: 'ipv4:127.0.0.1:4200', exerciseGrpc: 'ipv4:127.0.0.1:4300,127.0.0.1:4301' };
    expect(gatewayConfigOf({ ...cfg, upstreams: { ...cfg.upstreams!, ...targets } }).grpc).toEqual({
      leftoverTarget: 'ipv4:127.0.0.1:4200',
      exerciseTarget: 'ipv4:127.0.0.1:4300,127.0.0.1:4301',
      maxBodyBytes: bodyLimitFor(512),
    });
    expect(() => gatewayConfigOf(cfg)).toThrow(/transport grpc\) was given no gRPC targets/);
  });

  it('fails with the upstream name on a bad URL', () => {
    const cfg = serviceConfig(msa, 'gateway');
    expect(() => gatewayConfigOf({ ...cfg, upstreams: { ...cfg.upstreams!, exerciseUrl: 'ftp://x' } })).toThrow(/exercise/);
  });
});

describe('graderOptionsOf', () => {
  it('maps the spec grader and archive limit onto the machine interpreter and sandbox', () => {
    const cfg = serviceConfig(
      {
        ...msa,
        grader: { exec: 'pool', isolation: 'none', timeoutMs: 2500, nice: 7, limits: { processes: 32, jobBytes: 8 * 1024 * 1024 }, cgroups: 'off', maxOutputBytes: 4096, maxConcurrent: 3 },
        http: { maxArchiveBytes: 65536 },
      },
      'exercise',
      { SG_PYTHON: '/opt/py/bin/python3', SG_SANDBOX_ROOT: '/var/tmp/sb' },
    );
    expect(graderOptionsOf(cfg, 2)).toEqual({
      python: '/opt/py/bin/python3',
      sandboxRoot: '/var/tmp/sb',
      timeoutMs: 2500,
      isolation: 'none',
      niceness: 7,
      limits: {
        cpuSeconds: 10,
        fileSizeBytes: 16 * 1024 * 1024,
        processes: 32,
        memoryBytes: 512 * 1024 * 1024,
        gradingMemoryBytes: 1024 * 1024 * 1024,
        jobBytes: 8 * 1024 * 1024,
        openFiles: 256,
        tmpBytes: 16 * 1024 * 1024,
        workBytes: 64 * 1024 * 1024,
      },
      cgroups: 'off',
      maxOutputBytes: 4096,
      maxConcurrent: 3,
      poolSize: 2,
      archive: { maxCompressedBytes: 65536, maxUncompressedBytes: 32 * 1024 * 1024, maxEntries: 2000, maxCompressionRatio: 200 },
    });
  });

  it('resolves unset concurrency and warm pool on the machine: 4 gradings and 1 warm sandbox per CPU', () => {
    expect(graderOptionsOf(serviceConfig(msa, 'exercise'), 3)).toMatchObject({ maxConcurrent: 12, poolSize: 3 });
  });
});

describe('the HTTP edge, auth and identity', () => {
  it("believe X-Forwarded-* from the variant's own proxies only: nobody's for a monolith reached directly", () => {
    const direct = { name: 'direct', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 1 } } as const;
    expect(httpOptionsOf(serviceConfig(direct, 'monolith'), 't').trustProxy).toEqual([]);
    expect(httpOptionsOf(serviceConfig({ ...direct, replicas: { monolith: 2 }, entry: 'haproxy' }, 'monolith'), 't').trustProxy).toEqual(['loopback']);
  });

  it('come from the spec (tunables) and the connections (the secret)', () => {
    const cfg = serviceConfig({ ...msa, auth: { kdfCost: 4 }, admission: { enabled: false } }, 'exercise', { SG_JWT_SECRET: 'a-secret-of-16-chars+', REDIS_URL: 'redis://cache:6379' });
    expect(httpOptionsOf(cfg, 't')).toEqual({
      title: 't',
      corsOrigins: '',
      maxArchiveBytes: 1024 * 1024,
      opsAccess: 'internal',
      keepAliveMs: 65_000,
      requestTimeoutMs: 120_000,
      // X-Forwarded-* believed from the variant's own proxy only (the gateway, on loopback), never every private range
      trustProxy: ['loopback'],
    });
    expect(authConfigOf(cfg)).toEqual({
      jwtSecret: 'a-secret-of-16-chars+',
      accessTtlSeconds: 900,
      refreshTtlSeconds: 604_800,
      kdfCost: 4,
      secureCookies: 'auto',
      refreshCookiePath: '/api/auth',
      tokenVersionCacheMs: 5_000,
      notifiedCacheMs: 300_000,
      identity: 'access-token',
      // An exercise process has the variant's gateway in front of it, on loopback.
      trustedProxies: ['loopback'],
      // The spec's limits (their values are pinned in libs/variant's spec-defaults test); two
      // exercise replicas: counters shared through the connections' Redis.
      rateLimits: { ...authSchema.parse({}).rateLimits, store: 'redis', redisUrl: 'redis://cache:6379' },
    });
    expect(identityOf(cfg)).toEqual({ role: 'exercise', replica: 1, variant: 'settings' });
  });

  it('keep the counters of a single replica in memory: the one leftover of msa-1-2 checks every login, its two exercise replicas share theirs', () => {
    const env = { SG_JWT_SECRET: 'a-secret-of-16-chars+', REDIS_URL: 'redis://cache:6379' };
    const leftover = authConfigOf(serviceConfig(msa, 'leftover', env)).rateLimits;
    expect(leftover).toMatchObject({ enabled: true, store: 'memory' });
    expect(leftover.redisUrl).toBeUndefined();
    expect(authConfigOf(serviceConfig(msa, 'exercise', env)).rateLimits).toMatchObject({ store: 'redis', redisUrl: 'redis://cache:6379' });
  });

  it('pass every auth and HTTP-edge field a spec sets through unchanged', () => {
    const cfg = serviceConfig(
      {
        ...msa,
        replicas: { gateway: 1, leftover: 1, exercise: 1 },
        http: { corsOrigins: 'https://spa.example', opsAccess: 'public' },
        auth: {
          secureCookies: true,
          refreshCookiePath: '/auth',
          tokenVersionCacheMs: 0,
          rateLimits: { enabled: false, submissionsPerStudent: { points: 2, durationS: 5 } },
        },
      },
      'leftover',
    );
    expect(httpOptionsOf(cfg, 't')).toMatchObject({ corsOrigins: 'https://spa.example', opsAccess: 'public' });
    const auth = authConfigOf(cfg);
    expect(auth).toMatchObject({ secureCookies: true, refreshCookiePath: '/auth', tokenVersionCacheMs: 0 });
    expect(auth.rateLimits).toMatchObject({ enabled: false, store: 'memory', submissionsPerStudent: { points: 2, durationS: 5 } });
    expect(auth.rateLimits.redisUrl).toBeUndefined();
  });
});

describe('authConfigOf: who vouches for the caller (gateway.pattern offloading, paper 003)', () => {
  it('services behind an offloading gateway trust only its assertion; the gateway itself, and every other pattern, check the access token', () => {
    const offloading = { ...msa, gateway: { pattern: 'offloading' as const } };
    expect(authConfigOf(serviceConfig(offloading, 'leftover')).identity).toBe('gateway-assertion');
    expect(authConfigOf(serviceConfig(offloading, 'exercise')).identity).toBe('gateway-assertion');
    expect(authConfigOf(serviceConfig(offloading, 'gateway')).identity).toBe('access-token');
    expect(authConfigOf(serviceConfig(msa, 'leftover')).identity).toBe('access-token');
  });
});

describe('authConfigOf refuses default secrets outside development', () => {
  const exposed = (spec: VariantSpecInput, env: NodeJS.ProcessEnv = {}): ServiceConfig => ({ ...serviceConfig(spec, 'exercise', env), host: '0.0.0.0' });
  const generated = {
    SG_JWT_SECRET: 'kq3v9XbL2pW8rT5mZ1cN7fH4sD6gJ0aY',
    DATABASE_URL: 'postgres://shellgrade:Zr8vK2qW5pL9@db:5432/shellgrade',
    AMQP_URL: 'amqp://shellgrade:Tn4cX7bM1vQ3@rabbitmq:5672',
    // msa's two exercise replicas share their rate-limit counters in Redis
    REDIS_URL: 'redis://:Qw7eR4tY1uI9oP3a@redis:6379',
  };

  it('starts on loopback with the dev defaults (the native launcher)', () => {
    expect(() => authConfigOf(serviceConfig(msa, 'exercise'))).not.toThrow();
  });

  it('refuses the defaults when bound beyond loopback, naming what to generate', () => {
    expect(() => authConfigOf(exposed(msa))).toThrow(/SG_JWT_SECRET[\s\S]*DATABASE_URL/);
    expect(() => authConfigOf(exposed(msa, { ...generated, DATABASE_URL: undefined }))).toThrow(/DATABASE_URL/);
    expect(() => authConfigOf(exposed(msa, generated))).not.toThrow();
  });

  it('follows auth.secretPolicy: production refuses on loopback, development accepts when exposed', () => {
    expect(() => authConfigOf(serviceConfig({ ...msa, auth: { secretPolicy: 'production' } }, 'exercise'))).toThrow(/SG_JWT_SECRET/);
    expect(() => authConfigOf(exposed({ ...msa, auth: { secretPolicy: 'development' } }))).not.toThrow();
  });

  it('checks the broker credentials only for a rabbitmq variant', () => {
    const rabbit = { ...msa, dispatch: 'rabbitmq' as const };
    expect(() => authConfigOf(exposed(rabbit, { ...generated, AMQP_URL: undefined }))).toThrow(/AMQP_URL/);
    expect(() => authConfigOf(exposed(rabbit, generated))).not.toThrow();
  });

  it('checks the Redis password whenever the variant uses Redis (BullMQ, cache, shared rate limits)', () => {
    const noRedis = { ...generated, REDIS_URL: undefined };
    const single = { ...msa, replicas: { gateway: 1, leftover: 1, exercise: 1 } };
    expect(() => authConfigOf(exposed(single, noRedis))).not.toThrow(); // uses no Redis
    expect(() => authConfigOf(exposed({ ...single, dispatch: 'bullmq' as const }, noRedis))).toThrow(/REDIS_URL/);
    expect(() => authConfigOf(exposed({ ...single, cache: 'redis' as const }, noRedis))).toThrow(/REDIS_URL/);
    expect(() => authConfigOf(exposed(msa, noRedis))).toThrow(/REDIS_URL/);
    expect(() => authConfigOf(exposed({ ...single, dispatch: 'bullmq' as const }, generated))).not.toThrow();
  });
});

describe('authConfigOf: no default secret and no cheap hash wherever the network reaches the process', () => {
  /** The process plan of `variant up <preset> --listen <address>`, one role's replica as the service reads it. */
  const planned = (preset: string, role: ServiceConfig['role'], listen: string | undefined, env: NodeJS.ProcessEnv = {}): ServiceConfig => {
    const proc = variantProcesses(loadVariant(preset), listen ? { listen } : {}).find((p) => p.role === role)!;
    return { ...decodeProcessConfig(proc.env[PROCESS_ENV]!), connections: loadConnections(env) };
  };
  const strongJwt = { SG_JWT_SECRET: 'kq3v9XbL2pW8rT5mZ1cN7fH4sD6gJ0aY' };

  it.each([
    ['msa-zygote-1-2', 'leftover'],
    ['msa-zygote-1-2', 'exercise'],
    ['mon-x2', 'monolith'],
  ] as const)('%s --listen 0.0.0.0: the %s replica, on loopback behind the exposed HAProxy, refuses the published defaults', (preset, role) => {
    const cfg = planned(preset, role, '0.0.0.0', strongJwt);
    expect(cfg.host).toBe('127.0.0.1');
    expect(() => authConfigOf(cfg)).toThrow(new RegExp(`${role} replica 0 is reached on 0\\.0\\.0\\.0 \\(beyond loopback\\)[\\s\\S]*DATABASE_URL has no password or a published default one`));
    // Without --listen the same replica is this machine's only: the launcher's development accounts are fine.
    expect(() => authConfigOf(planned(preset, role, undefined, strongJwt))).not.toThrow();
  });

  it("refuses the paper's cheap password hash behind an exposed proxy, even with generated secrets", () => {
    const generated = { ...strongJwt, DATABASE_URL: 'postgres://shellgrade:Zr8vK2qW5pL9xT4m@127.0.0.1:55432/shellgrade', REDIS_URL: 'redis://:Qw7eR4tY1uI9oP3a@127.0.0.1:56379' };
    const cfg = planned('msa-zygote-1-2', 'leftover', '0.0.0.0', generated);
    expect(() => authConfigOf(cfg)).not.toThrow();
    const cheap = { ...cfg, spec: { ...cfg.spec, auth: { ...cfg.spec.auth, kdfCost: 1 } } };
    expect(() => authConfigOf(cheap)).toThrow(/leftover replica 0 is reached on 0\.0\.0\.0[\s\S]*auth\.kdfCost 1 is below 14/);
    expect(() => authConfigOf({ ...cheap, spec: { ...cheap.spec, auth: { ...cheap.spec.auth, secretPolicy: 'development' } } })).not.toThrow();
  });
});
