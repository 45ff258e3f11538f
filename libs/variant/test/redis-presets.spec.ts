import { decodeProcessConfig, loadVariant, variantProcesses, type VariantSpec } from '../src';

/** The read-path cache presets and the preset each one must match in everything but the cache. */
const PRESETS: [cached: string, uncached: string][] = [
  ['mon-redis', 'naked-mon'],
  ['msa-redis-1-2', 'msa-1-2'],
];

const comparable = (spec: VariantSpec) => {
  const { name: _name, description: _description, paper: _paper, cache: _cache, ...rest } = spec as VariantSpec & Record<string, unknown>;
  return rest;
};

describe('Redis cache presets', () => {
  it.each(PRESETS)('%s caches in redis and otherwise equals %s', (cachedName, uncachedName) => {
    const cached = loadVariant(cachedName);
    const uncached = loadVariant(uncachedName);
    expect(cached.cache).toBe('redis');
    expect(uncached.cache).toBe('none');
    expect(comparable(cached)).toEqual(comparable(uncached));
    expect(cached.paper?.source).toBe('001 Eriksson (cache experiments)');
  });

  it.each(PRESETS)('%s tells every process cache: redis', (cachedName) => {
    const services = variantProcesses(loadVariant(cachedName)).filter((p) => p.role !== 'haproxy');
    expect(services.length).toBeGreaterThan(0);
    for (const p of services) expect(decodeProcessConfig(p.env.SG_PROCESS).spec.cache).toBe('redis');
  });
});
