import { loadVariant } from './loader';
import { balancedFrontends, entryUrl, variantProcesses, variantServers } from './processes';
import { runtimeConfigSchema } from './runtime-config';
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
    expect(procs[1].env).toMatchObject({
      SG_ROLE: 'monolith', SG_REPLICA: '1', SG_PORT: '3001', SG_VARIANT: 'mon-x2', SG_DISPATCH: 'inline', SG_GRADER_EXEC: 'blocking',
    });
    expect(procs[1].env.SG_EXERCISE_URL).toBeUndefined();
    expect(procs[2]).toMatchObject({ role: 'haproxy', healthUrl: 'http://127.0.0.1:8080/health' });
    expect(entryUrl(spec)).toBe('http://127.0.0.1:8080');
    expect(variantServers(spec)).toEqual(['postgres', 'haproxy']);
  });

  it('msa-1-2: gateway direct, single leftover direct, two exercises behind :8082', () => {
    const spec = loadVariant('msa-1-2');
    const procs = variantProcesses(spec);
    expect(procs.map((p) => `${p.name}@${p.port}`)).toEqual([
      'sg-leftover-0@3200', 'sg-exercise-0@3300', 'sg-exercise-1@3301', 'sg-gateway-0@3100', 'sg-haproxy@8082',
    ]);
    const gateway = procs.find((p) => p.role === 'gateway')!;
    expect(gateway.env).toMatchObject({
      SG_ROLE: 'gateway', SG_PORT: '3100', SG_DISPATCH: 'http',
      SG_LEFTOVER_URL: 'http://127.0.0.1:3200', SG_EXERCISE_URL: 'http://127.0.0.1:8082',
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
      expect(p.env).toMatchObject({ SG_LEFTOVER_URL: 'http://127.0.0.1:8081', SG_EXERCISE_URL: 'http://127.0.0.1:8082' });
    }
    expect(balancedFrontends(spec).map((f) => [f.name, f.port, f.role, f.servers.length])).toEqual([
      ['entry', 8080, 'gateway', 2], ['leftover', 8081, 'leftover', 4], ['exercise', 8082, 'exercise', 4],
    ]);
    expect(entryUrl(spec)).toBe('http://127.0.0.1:8080');
  });

  it('every env a spec produces is a valid runtime configuration', () => {
    for (const name of ['naked-mon', 'msa-2-4-4', 'msa-rabbitmq-1-4-async', 'msa-bullmq-minio-1-4', 'msa-redis-1-2']) {
      for (const p of variantProcesses(loadVariant(name)).filter((q) => q.role !== 'haproxy')) {
        const cfg = runtimeConfigSchema.parse(p.env);
        expect(cfg.SG_PORT).toBe(p.port);
        expect(cfg.SG_ROLE).toBe(p.role);
      }
    }
  });

  it('broker tunables and env overrides reach the processes', () => {
    const spec = validateVariant({
      name: 'custom', description: 'x', topology: 'msa', dispatch: 'rabbitmq', reply: 'async',
      replicas: { gateway: 1, leftover: 1, exercise: 1 }, broker: { prefetch: 4 }, env: { SG_KDF_COST: 4, SG_DB_POOL: 3 },
      tracing: { enabled: true, sampleRatio: 0.25 },
    });
    const env = variantProcesses(spec)[0].env;
    expect(env).toMatchObject({ SG_BROKER_PREFETCH: '4', SG_BROKER_RETRIES: '3', SG_BROKER_RETRY_DELAY_MS: '500', SG_BROKER_REPLY_TIMEOUT_MS: '50000', SG_KDF_COST: '4', SG_DB_POOL: '3', SG_TRACING: 'true', SG_TRACE_SAMPLE: '0.25' });
  });
});

describe('variantServers', () => {
  it.each([
    ['msa-1-1', ['postgres']],
    ['msa-rabbitmq-2-4-4', ['postgres', 'rabbitmq', 'haproxy']],
    ['msa-bullmq-1-4', ['postgres', 'redis', 'haproxy']],
    ['mon-minio', ['postgres', 'minio']],
    ['msa-rabbitmq-minio-1-4', ['postgres', 'rabbitmq', 'minio', 'haproxy']],
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
});
