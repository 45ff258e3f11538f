import { loadRuntimeConfig } from '@shellgrade/variant';
import { gatewayConfigFrom } from './gateway-config';

describe('gatewayConfigFrom', () => {
  it('reads upstream replica lists, timeout, CORS origins and replica index from SG_*', () => {
    const config = gatewayConfigFrom(
      loadRuntimeConfig({
        SG_ROLE: 'gateway',
        SG_REPLICA: '1',
        SG_EXERCISE_URL: 'http://127.0.0.1:3300,http://127.0.0.1:3301',
        SG_LEFTOVER_URL: 'http://127.0.0.1:3200/',
        SG_UPSTREAM_TIMEOUT_MS: '1500',
        SG_CORS_ORIGINS: 'http://localhost:5173',
      }),
    );
    expect(config).toMatchObject({
      replica: 1,
      exerciseUrls: ['http://127.0.0.1:3300', 'http://127.0.0.1:3301'],
      leftoverUrls: ['http://127.0.0.1:3200'],
      upstreamTimeoutMs: 1500,
      corsOrigins: 'http://localhost:5173',
    });
  });

  it('defaults to one replica of each service on their first loopback port', () => {
    const config = gatewayConfigFrom(loadRuntimeConfig({}));
    expect(config.exerciseUrls).toEqual(['http://127.0.0.1:3300']);
    expect(config.leftoverUrls).toEqual(['http://127.0.0.1:3200']);
  });

  it('fails with the variable name on a bad upstream URL', () => {
    expect(() => gatewayConfigFrom(loadRuntimeConfig({ SG_EXERCISE_URL: 'ftp://x' }))).toThrow(/exercise/);
  });
});
