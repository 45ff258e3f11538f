import { loadVariant } from './loader';
import { balancedFrontends, entryUrl, variantProcesses, variantServers } from './processes';
import { decodeProcessConfig, PROCESS_ENV } from './process-config';
import { validateVariant } from './loader';

const summary = (name: string) => variantProcesses(loadVariant(name)).map((p) => `${p.name}@${p.port}`);

describe('variantProcesses', () => {
  it('naked-mon: one monolith on :3000, no proxy', () => {
    const spec = loadVariant('naked-mon');
    expect(summary('naked-mon')).toEqual(['sg-monolith-0@3000']);
    expect(entryUrl(spec)).toBe('http://127.0.0.1:3000');
    expect(variantServers(spec)).toEqual(['postgres']);
  });

  it('mon-x1 keeps HAProxy in front of its single monolith', () => {
    expect(summary('mon-x1')).toEqual(['sg-monolith-0@3000', 'sg-haproxy@8080']);
  });

  it('mon-x2: two monoliths behind HAProxy on :8080', () => {
    const spec = loadVariant('mon-x2');
    const procs = variantProcesses(spec);
    expect(procs.map((p) => `${p.name}@${p.port}`)).toEqual(['sg-monolith-0@3000', 'sg-monolith-1@3001', 'sg-haproxy@8080']);
    const second = decodeProcessConfig(procs[1].env[PROCESS_ENV]);
    expect(second).toMatchObject({ role: 'monolith', replica: 1, port: 3001, spec: { name: 'mon-x2', dispatch: 'inline', grader: { exec: 'blocking' } } });
    expect(second.upstreams).toBeUndefined();
    expect(procs[2]).toMatchObject({ role: 'haproxy', healthUrl: 'http://127.0.0.1:8080/health' });
    expect(entryUrl(spec)).toBe('http://127.0.0.1:8080');
    expect(variantServers(spec)).toEqual(['postgres', 'redis', 'haproxy']);
  });

  it('msa-1-2: gateway direct, single leftover direct, two exercises behind :8082', () => {
    const spec = loadVariant('msa-1-2');
    const procs = variantProcesses(spec);
    expect(procs.map((p) => `${p.name}@${p.port}`)).toEqual([
      'sg-leftover-0@3200', 'sg-exercise-0@3300', 'sg-exercise-1@3301', 'sg-gateway-0@3100', 'sg-haproxy@8082',
    ]);
    const gateway = procs.find((p) => p.role === 'gateway')!;
    expect(decodeProcessConfig(gateway.env[PROCESS_ENV])).toMatchObject({
      role: 'gateway', port: 3100, spec: { dispatch: 'inline', transport: 'http' },
      upstreams: { leftoverUrl: 'http://127.0.0.1:3200', exerciseUrl: 'http://127.0.0.1:8082' },
    });
    expect(entryUrl(spec)).toBe('http://127.0.0.1:3100');
    expect(balancedFrontends(spec).map((f) => [f.name, f.port, f.servers.length])).toEqual([['exercise', 8082, 2]]);
  });

  it('msa-2-4-4: 2 gateways + 4 leftover + 4 exercise + HAProxy = 11 processes', () => {
    const spec = loadVariant('msa-2-4-4');
    const procs = variantProcesses(spec);
    expect(procs).toHaveLength(11);
    expect(procs.filter((p) => p.role === 'gateway').map((p) => p.port)).toEqual([3100, 3101]);
    expect(procs.filter((p) => p.role === 'leftover').map((p) => p.port)).toEqual([3200, 3201, 3202, 3203]);
    expect(procs.filter((p) => p.role === 'exercise').map((p) => p.port)).toEqual([3300, 3301, 3302, 3303]);
    expect(new Set(procs.map((p) => p.port)).size).toBe(11);
    for (const p of procs.filter((q) => q.role === 'gateway')) {
      expect(decodeProcessConfig(p.env[PROCESS_ENV]).upstreams).toEqual({ leftoverUrl: 'http://127.0.0.1:8081', exerciseUrl: 'http://127.0.0.1:8082' });
    }
    expect(balancedFrontends(spec).map((f) => [f.name, f.port, f.role, f.servers.length])).toEqual([
      ['entry', 8080, 'gateway', 2], ['leftover', 8081, 'leftover', 4], ['exercise', 8082, 'exercise', 4],
    ]);
    expect(entryUrl(spec)).toBe('http://127.0.0.1:8080');
  });

  it('msa-grpc-1-2: the gateway gets gRPC targets of every replica, callees a grpc.health.v1 address, no HAProxy', () => {
    const spec = loadVariant('msa-grpc-1-2');
    const procs = variantProcesses(spec);
    expect(procs.map((p) => `${p.name}@${p.port}`)).toEqual(['sg-leftover-0@3200', 'sg-exercise-0@3300', 'sg-exercise-1@3301', 'sg-gateway-0@3100']);
    const gateway = procs.find((p) => p.role === 'gateway')!;
    expect(decodeProcessConfig(gateway.env[PROCESS_ENV]).upstreams).toMatchObject({
      leftoverGrpc: 'ipv4:127.0.0.1:4200', exerciseGrpc: 'ipv4:127.0.0.1:4300,127.0.0.1:4301',
    });
    expect(gateway.grpcHealthAddress).toBeUndefined();
    expect(procs.filter((p) => p.role !== 'gateway').map((p) => p.grpcHealthAddress)).toEqual(['127.0.0.1:4200', '127.0.0.1:4300', '127.0.0.1:4301']);
    expect(variantServers(spec)).toEqual(['postgres', 'redis']); // redis: rate-limit counters shared by the two exercise replicas; no haproxy
  });

  it('refuses transport grpc for a monolith (it has no internal hop)', () => {
    expect(() => validateVariant({ ...loadVariant('naked-mon'), transport: 'grpc' })).toThrow(/transport/);
  });

  it('every process receives one validated process config: its place and the whole spec', () => {
    for (const name of ['naked-mon', 'msa-2-4-4', 'msa-rabbitmq-1-4-async', 'msa-bullmq-minio-1-4', 'msa-redis-1-2']) {
      const spec = loadVariant(name);
      for (const p of variantProcesses(spec).filter((q) => q.role !== 'haproxy')) {
        const cfg = decodeProcessConfig(p.env[PROCESS_ENV]);
        expect(cfg).toMatchObject({ role: p.role, replica: p.replica, port: p.port });
        expect(cfg.spec).toEqual(spec);
        // Only the process config and OpenTelemetry's own names: no tunable travels as its own variable.
        expect(Object.keys(p.env).sort()).toEqual(['OTEL_RESOURCE_ATTRIBUTES', 'OTEL_SERVICE_NAME', PROCESS_ENV]);
      }
    }
  });

  it('tunables reach the processes inside the spec, with the schema defaults filled in; env adds variables last', () => {
    const spec = validateVariant({
      name: 'custom', description: 'x', topology: 'msa', dispatch: 'rabbitmq', reply: 'async',
      replicas: { gateway: 1, leftover: 1, exercise: 1 }, broker: { prefetch: 4 }, database: { pool: 3 },
      tracing: { enabled: true, sampleRatio: 0.25 }, env: { NODE_OPTIONS: '--max-old-space-size=256' },
    });
    const env = variantProcesses(spec)[0].env;
    expect(decodeProcessConfig(env[PROCESS_ENV]).spec).toMatchObject({
      broker: { queue: 'sg.grading', prefetch: 4, retries: 3, retryDelayMs: 500, replyTimeoutMs: 50_000, publishTimeoutMs: 10_000, retryAfterS: 5, consume: true },
      database: { pool: 3 },
      tracing: { enabled: true, sampleRatio: 0.25 },
      auth: { kdfCost: 14 },
      http: { maxArchiveBytes: 1024 * 1024, corsOrigins: '', opsAccess: 'internal' },
    });
    expect(env.NODE_OPTIONS).toBe('--max-old-space-size=256');
  });

  it('refuses a process config that is not a valid spec, naming the field', () => {
    const spec = loadVariant('naked-mon');
    const raw = JSON.parse(variantProcesses(spec)[0].env[PROCESS_ENV]);
    raw.spec.broker.prefetch = 0;
    expect(() => decodeProcessConfig(JSON.stringify(raw))).toThrow(/spec\.broker\.prefetch/);
    expect(() => decodeProcessConfig('{')).toThrow(/SG_PROCESS is not JSON/);
  });
});

describe('variantServers', () => {
  it.each([
    ['msa-1-1', ['postgres']],
    ['msa-rabbitmq-2-4-4', ['postgres', 'redis', 'rabbitmq', 'haproxy']],
    ['msa-bullmq-1-4', ['postgres', 'redis', 'haproxy']],
    ['mon-minio', ['postgres', 'minio']],
    ['msa-rabbitmq-minio-1-4', ['postgres', 'redis', 'rabbitmq', 'minio', 'haproxy']],
    ['mon-redis', ['postgres', 'redis']],
    ['msa-redis-1-2', ['postgres', 'redis', 'haproxy']],
  ])('%s needs %j', (name, servers) => {
    expect(variantServers(loadVariant(name))).toEqual(servers);
  });

  it('adds redis for a cache and jaeger for tracing', () => {
    const spec = validateVariant({
      name: 'c', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 1 },
      cache: 'redis', tracing: { enabled: true },
    });
    expect(variantServers(spec)).toEqual(['postgres', 'redis', 'jaeger']);
    expect(variantServers({ ...spec, cache: 'none' })).toEqual(['postgres', 'jaeger']);
  });

  it('--listen moves only a directly reached entry off loopback; health is still checked locally', () => {
    const [mono] = variantProcesses(loadVariant('naked-mon'), { listen: '0.0.0.0' });
    expect(decodeProcessConfig(mono.env.SG_PROCESS).host).toBe('0.0.0.0');
    expect(mono.healthUrl).toBe('http://127.0.0.1:3000/health');
    const procs = variantProcesses(loadVariant('mon-x2'), { listen: '0.0.0.0' });
    expect(procs.filter((p) => p.role === 'monolith').map((p) => decodeProcessConfig(p.env.SG_PROCESS).host)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('adds redis for rate-limit counters shared by replicas, unless the limits are off', () => {
    const spec = validateVariant({ name: 'r', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 2 } });
    expect(variantServers(spec)).toEqual(['postgres', 'redis', 'haproxy']);
    const off = validateVariant({ name: 'r', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 2 }, auth: { rateLimits: { enabled: false } } });
    expect(variantServers(off)).toEqual(['postgres', 'haproxy']);
  });
});

describe('gateway.engine haproxy', () => {
  it('runs no Node gateway: HAProxy takes the gateway port, routes to every replica, and is the entry', () => {
    const spec = loadVariant('msa-zygote-1-2');
    expect(summary('msa-zygote-1-2')).toEqual(['sg-leftover-0@3200', 'sg-exercise-0@3300', 'sg-exercise-1@3301', 'sg-haproxy@3100']);
    const [gateway] = balancedFrontends(spec);
    expect(gateway).toMatchObject({ name: 'gateway', port: 3100, servers: [] });
    expect(gateway!.routes).toEqual({
      leftover: [{ name: 'sg-leftover-0', port: 3200 }],
      exercise: [{ name: 'sg-exercise-0', port: 3300 }, { name: 'sg-exercise-1', port: 3301 }],
    });
    expect(entryUrl(spec)).toBe('http://127.0.0.1:3100');
    expect(variantProcesses(spec, { listen: '0.0.0.0' }).find((p) => p.role === 'haproxy')!.healthUrl).toBe('http://127.0.0.1:3100/health');
  });

  it('is refused where HAProxy cannot stand in for the gateway, each with its reason', () => {
    const msa = { name: 'h', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 1, leftover: 1, exercise: 1 }, gateway: { engine: 'haproxy' } };
    expect(() => validateVariant(msa)).not.toThrow();
    expect(() => validateVariant({ ...msa, transport: 'grpc' })).toThrow(/haproxy forwards HTTP: transport grpc needs engine node/);
    expect(() => validateVariant({ ...msa, gateway: { engine: 'haproxy', pattern: 'offloading' } })).toThrow(/pattern offloading needs engine node/);
    expect(() => validateVariant({ ...msa, replicas: { ...msa.replicas, gateway: 2 } })).toThrow(/one HAProxy is the gateway/);
    expect(() => validateVariant({ ...msa, entry: 'haproxy' })).toThrow(/already the entry/);
    expect(() => validateVariant({ name: 'm', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 1 }, gateway: { engine: 'haproxy' } })).toThrow(
      /a monolith has no gateway/,
    );
  });
});
