import { decodeProcessConfig, loadVariant, variantProcesses, variantSpecSchema, type VariantSpec } from '../src';

/**
 * Presets that differ from a base preset in exactly one field: the MinIO presets (storage, the
 * object store of paper 000's future work), the read-path cache presets of paper 001 (cache) and
 * the gRPC presets of paper 002 (transport).
 */
const DERIVED: [field: 'storage' | 'cache' | 'transport', derived: string, base: string][] = [
  ['storage', 'mon-minio', 'naked-mon'],
  ['storage', 'msa-minio-1-2', 'msa-1-2'],
  ['storage', 'msa-minio-1-4', 'msa-1-4'],
  ['storage', 'msa-rabbitmq-minio-1-4', 'msa-rabbitmq-1-4'],
  ['storage', 'msa-bullmq-minio-1-4', 'msa-bullmq-1-4'],
  ['storage', 'msa-rabbitmq-minio-2-4-4', 'msa-rabbitmq-2-4-4'],
  ['cache', 'mon-redis', 'naked-mon'],
  ['cache', 'msa-redis-1-2', 'msa-1-2'],
  ['transport', 'msa-grpc-1-1', 'msa-1-1'],
  ['transport', 'msa-grpc-1-2', 'msa-1-2'],
  ['transport', 'msa-grpc-2-4-4', 'msa-2-4-4'],
];

const VALUES = { storage: ['minio', 'postgres'], cache: ['redis', 'none'], transport: ['grpc', 'http'] } as const;

/** Everything but the identity fields and `field`. */
const comparable = (spec: VariantSpec, field: string) => {
  const rest: Record<string, unknown> = { ...spec };
  for (const key of ['name', 'description', 'paper', field]) delete rest[key];
  return rest;
};

describe.each(DERIVED)('%s preset %s', (field, derivedName, baseName) => {
  it(`differs from ${baseName} in ${field} only`, () => {
    const derived = loadVariant(derivedName);
    const base = loadVariant(baseName);
    expect([derived[field], base[field]]).toEqual(VALUES[field]);
    expect(comparable(derived, field)).toEqual(comparable(base, field));
  });

  it(`tells every process its ${field}`, () => {
    const services = variantProcesses(loadVariant(derivedName)).filter((p) => p.role !== 'haproxy');
    expect(services.length).toBeGreaterThan(0);
    for (const p of services) expect(decodeProcessConfig(p.env.SG_PROCESS).spec[field]).toBe(VALUES[field][0]);
  });
});

it('the cache presets name paper 001', () => {
  for (const name of ['mon-redis', 'msa-redis-1-2']) expect(loadVariant(name).paper?.source).toBe('001 Eriksson (cache experiments)');
});

describe('pattern preset msa-aggregation-1-2 (paper 003)', () => {
  it('differs from msa-1-2, its baseline, in gateway.pattern only', () => {
    const derived = loadVariant('msa-aggregation-1-2');
    const base = loadVariant('msa-1-2');
    expect([derived.gateway.pattern, base.gateway.pattern]).toEqual(['aggregation', 'proxy']);
    const withoutPattern = (spec: VariantSpec) => ({ ...comparable(spec, 'gateway'), gateway: { ...spec.gateway, pattern: undefined } });
    expect(withoutPattern(derived)).toEqual(withoutPattern(base));
  });

  it('is refused on a monolith, which has no gateway', () => {
    expect(() => variantSpecSchema.parse({ ...loadVariant('naked-mon'), gateway: { pattern: 'aggregation' } })).toThrow(/needs topology msa/);
  });
});
