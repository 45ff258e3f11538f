/** The installation's scrape token (env SG_SCRAPE_TOKEN) reaches every service's HTTP edge and the gateway. */
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
import { gatewayConfigOf, httpOptionsOf } from '../src';

const msa: VariantSpecInput = { name: 'scrape', description: 'x', topology: 'msa', dispatch: 'inline', replicas: { gateway: 1, leftover: 1, exercise: 1 } };
const TOKEN = 'per-installation-scrape-token-0123456789';

function serviceConfig(role: ServiceConfig['role'], env: NodeJS.ProcessEnv): ServiceConfig {
  const upstreams = { leftoverUrl: 'http://127.0.0.1:3200', exerciseUrl: 'http://127.0.0.1:3300' };
  return { ...processConfigOf(validateVariant(msa), role, 0, { host: '127.0.0.1', port: 3100, upstreams }), connections: loadConnections(env) };
}

describe('the scrape token in the service settings', () => {
  it('is handed to the HTTP edge of a service and to the gateway', () => {
    expect(httpOptionsOf(serviceConfig('leftover', { SG_SCRAPE_TOKEN: TOKEN }), 't').scrapeToken).toBe(TOKEN);
    expect(gatewayConfigOf(serviceConfig('gateway', { SG_SCRAPE_TOKEN: TOKEN })).scrapeToken).toBe(TOKEN);
  });

  it('is absent when the launcher gave none (loopback callers only), and refused when too short to be a secret', () => {
    expect(httpOptionsOf(serviceConfig('leftover', {}), 't').scrapeToken).toBeUndefined();
    expect(() => loadConnections({ SG_SCRAPE_TOKEN: 'short' })).toThrow(/SG_SCRAPE_TOKEN/);
  });
});
