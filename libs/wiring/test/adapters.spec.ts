import type { Provider } from '@nestjs/common';
import { ARCHIVE_STORE, GRADER, GRADING_DISPATCH, SUBMISSION_CONTEXT } from '@shellgrade/domain';
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
import { archiveStore, cache, dispatch, grader } from '../src';

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

  it('binds the grader', () => {
    expect(tokens(grader(cfgOf({})))).toContain(GRADER);
  });
});
