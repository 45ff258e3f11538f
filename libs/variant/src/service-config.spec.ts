import { PROCESS_ENV } from './process-config';
import { serviceEnv, variantProcesses } from './processes';
import { loadVariant } from './loader';
import { loadServiceConfig } from './service-config';

describe('loadServiceConfig', () => {
  it('reads the process config the launcher set, and the connections beside it', () => {
    const exercise = variantProcesses(loadVariant('msa-rabbitmq-1-2')).find((p) => p.name === 'sg-exercise-1')!;
    const cfg = loadServiceConfig('exercise', { ...exercise.env, DATABASE_URL: 'postgres://x@db/y' });
    expect(cfg).toMatchObject({ role: 'exercise', replica: 1, port: 3301, spec: { name: 'msa-rabbitmq-1-2', dispatch: 'rabbitmq' } });
    expect(cfg.connections.DATABASE_URL).toBe('postgres://x@db/y');
  });

  it('started by hand (no SG_PROCESS): replica 0 of the role’s dev preset on loopback, or of SG_VARIANT', () => {
    expect(loadServiceConfig('gateway', {})).toMatchObject({
      role: 'gateway', port: 3100, spec: { name: 'msa-1-1' },
      upstreams: { leftoverUrl: 'http://127.0.0.1:3200', exerciseUrl: 'http://127.0.0.1:3300' },
    });
    expect(loadServiceConfig('monolith', {}).spec.name).toBe('dev');
    expect(loadServiceConfig('monolith', { SG_VARIANT: 'mon-redis' }).spec.cache).toBe('redis');
  });

  it('refuses a process config meant for another role', () => {
    const spec = loadVariant('msa-1-1');
    const env = serviceEnv(spec, 'leftover', 0, { host: '127.0.0.1', port: 3200, upstreams: { leftoverUrl: 'http://127.0.0.1:3200', exerciseUrl: 'http://127.0.0.1:3300' } });
    expect(() => loadServiceConfig('exercise', env)).toThrow(`${PROCESS_ENV} is for role leftover, but this is the exercise service`);
  });
});
