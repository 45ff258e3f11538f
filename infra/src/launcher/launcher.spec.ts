import { up, VARIANT_APP } from './launcher';

// `up` must refuse before it takes the variant lock; if it ever went further, this stops it
// before pm2, servers or the shared run/ folder are touched.
jest.mock('./lock', () => ({
  withVariantLock: () => Promise.reject(new Error('up went past the exposure check')),
}));

describe('variant process names', () => {
  it('covers replicas and HAProxy, never the native servers of infra/bin/servers', () => {
    for (const name of ['sg-monolith-0', 'sg-gateway-1', 'sg-leftover-11', 'sg-exercise-3', 'sg-haproxy']) expect(VARIANT_APP.test(name)).toBe(true);
    for (const name of ['sg-postgres', 'sg-redis', 'sg-rabbitmq', 'sg-minio', 'sg-jaeger', 'sg-monolith', 'other-monolith-0']) {
      expect(VARIANT_APP.test(name)).toBe(false);
    }
  });
});

describe('variant up beyond loopback', () => {
  it('refuses the paper preset with a blocking grader on 0.0.0.0 unless --force-exposed', async () => {
    await expect(up('naked-mon', { listen: '0.0.0.0' })).rejects.toThrow(/refusing to expose naked-mon on 0\.0\.0\.0[\s\S]*exec blocking[\s\S]*--force-exposed/);
    await expect(up('msa-1-1', { listen: '192.168.10.4' })).rejects.toThrow(/refusing to expose msa-1-1/);
  });
});
