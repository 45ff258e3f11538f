/** Whose X-Forwarded-For a process believes for its per-client rate limits. */
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
import { authConfigOf } from '../src';

function serviceConfig(spec: Omit<VariantSpecInput, 'name' | 'description' | 'dispatch'>, role: ServiceConfig['role']): ServiceConfig {
  const upstreams = { leftoverUrl: 'http://127.0.0.1:3200/', exerciseUrl: 'http://127.0.0.1:3300/' };
  const valid = validateVariant({ name: 'proxies', description: 'x', dispatch: 'inline', ...spec } as VariantSpecInput);
  return { ...processConfigOf(valid, role, 0, { host: '127.0.0.1', port: 3000, upstreams }), connections: loadConnections({}) };
}

describe('authConfigOf: trusted proxies', () => {
  it("a process with no proxy of the variant in front believes no X-Forwarded-For: the peer is the client", () => {
    expect(authConfigOf(serviceConfig({ topology: 'monolith', replicas: { monolith: 1 }, entry: 'direct' }, 'monolith')).trustedProxies).toEqual([]);
    expect(authConfigOf(serviceConfig({ topology: 'msa', replicas: { gateway: 1, leftover: 1, exercise: 1 } }, 'gateway')).trustedProxies).toEqual([]);
  });

  it('behind the variant’s HAProxy or gateway (on loopback): loopback only, never every private range', () => {
    expect(authConfigOf(serviceConfig({ topology: 'monolith', replicas: { monolith: 2 }, entry: 'haproxy' }, 'monolith')).trustedProxies).toEqual(['loopback']);
    const msa = { topology: 'msa' as const, replicas: { gateway: 1, leftover: 1, exercise: 1 } };
    expect(authConfigOf(serviceConfig(msa, 'leftover')).trustedProxies).toEqual(['loopback']);
    expect(authConfigOf(serviceConfig(msa, 'exercise')).trustedProxies).toEqual(['loopback']);
  });

  it('the spec names them when the proxies live elsewhere (compose, Kubernetes)', () => {
    const cfg = serviceConfig({ topology: 'monolith', replicas: { monolith: 1 }, auth: { trustedProxies: ['172.18.0.0/16'] } }, 'monolith');
    expect(authConfigOf(cfg).trustedProxies).toEqual(['172.18.0.0/16']);
  });
});
