import { VARIANT_APP } from './launcher';

describe('variant process names', () => {
  it('covers replicas and HAProxy, never the native servers of infra/bin/servers', () => {
    for (const name of ['sg-monolith-0', 'sg-gateway-1', 'sg-leftover-11', 'sg-exercise-3', 'sg-haproxy']) expect(VARIANT_APP.test(name)).toBe(true);
    for (const name of ['sg-postgres', 'sg-redis', 'sg-rabbitmq', 'sg-minio', 'sg-jaeger', 'sg-monolith', 'other-monolith-0']) {
      expect(VARIANT_APP.test(name)).toBe(false);
    }
  });
});
