import type { Provider } from '@nestjs/common';
import { ARCHIVE_STORE, GRADER, GRADING_DISPATCH, SUBMISSION_CONTEXT } from '@shellgrade/domain';
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
import type { JobSandbox } from '@shellgrade/grading';
import { archiveStore, cache, dispatch, grader, graderExec } from '../src';

const cfgOf = (spec: Partial<VariantSpecInput>): ServiceConfig => {
  const full = validateVariant({ name: 'a', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 1, leftover: 1, exercise: 1 }, ...spec });
  const upstreams = { leftoverUrl: 'http://127.0.0.1:3200', exerciseUrl: 'http://127.0.0.1:3300' };
  return { ...processConfigOf(full, 'exercise', 0, { host: '127.0.0.1', port: 3300, upstreams }), connections: loadConnections({}) };
};
const tokens = (providers: Provider[]) => providers.map((p) => (typeof p === 'function' ? p : p.provide));

describe('the adapter table', () => {
  it.each(['inline', 'rabbitmq', 'bullmq', 'pipeline'] as const)('dispatch %s binds GRADING_DISPATCH', (kind) => {
    expect(tokens(dispatch[kind](cfgOf({ dispatch: kind })))).toContain(GRADING_DISPATCH);
  });

  it.each(['none', 'redis'] as const)('cache %s binds SUBMISSION_CONTEXT', (kind) => {
    expect(tokens(cache[kind](cfgOf({ cache: kind })))).toContain(SUBMISSION_CONTEXT);
  });

  it.each(['postgres', 'minio'] as const)('storage %s binds ARCHIVE_STORE once, inside spans only when the spec traces', (kind) => {
    const plain = archiveStore(cfgOf({ storage: kind }));
    const traced = archiveStore(cfgOf({ storage: kind, tracing: { enabled: true } }));
    expect(tokens(plain).filter((t) => t === ARCHIVE_STORE)).toHaveLength(1);
    expect(tokens(traced).filter((t) => t === ARCHIVE_STORE)).toHaveLength(1);
    expect(traced).toHaveLength(plain.length + 1);
  });

  it.each(['async', 'blocking', 'pool', 'zygote'] as const)('grader exec %s runs each grading with its own job runner', async (exec) => {
    // Nothing kept warm (pool size 0): the table is read, no sandbox is started.
    const opts = { isolation: 'bwrap', poolSize: 0, maxConcurrent: 1, maxOutputBytes: 1024, timeoutMs: 1000 };
    const sandbox = { opts, privileged: true, cgroups: undefined } as unknown as JobSandbox;
    const runner = graderExec[exec](sandbox);
    expect(runner.mode).toBe(exec);
    await runner.close();
  });

  it('binds the grader', () => {
    expect(tokens(grader(cfgOf({})))).toContain(GRADER);
  });
});
