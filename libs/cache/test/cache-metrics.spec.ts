import client from 'prom-client';
import { prometheusCacheObserver, throttled } from '../src/cache-metrics';

describe('throttled log', () => {
  it('logs the first line, then at most one per interval with how many were held back', () => {
    let now = 0;
    const lines: string[] = [];
    const warn = throttled((line) => lines.push(line), 10_000, () => now);
    warn('a');
    now = 5_000;
    warn('b');
    warn('c');
    now = 10_000;
    warn('d');
    now = 12_000;
    warn('e');
    expect(lines).toEqual(['a', 'd (2 more since the last report)']);
  });
});

describe('prometheusCacheObserver', () => {
  const value = async (name: string, labels: Record<string, string>) => {
    const metric = await client.register.getSingleMetric(name)!.get();
    return metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
  };

  it('counts requests by result and failures by operation on the default registry, registered once', async () => {
    const logged: string[] = [];
    const observer = prometheusCacheObserver((line) => logged.push(line));
    const again = prometheusCacheObserver(() => undefined);
    const before = (await value('shellgrade_cache_requests_total', { result: 'hit' })) ?? 0;
    observer.request('hit');
    again.request('hit');
    observer.request('error');
    observer.failed('lookup', new Error('Command timed out'));
    expect(await value('shellgrade_cache_requests_total', { result: 'hit' })).toBe(before + 2);
    expect(await value('shellgrade_cache_requests_total', { result: 'miss' })).toBe(0);
    expect(await value('shellgrade_cache_errors_total', { operation: 'lookup' })).toBe(1);
    expect(await value('shellgrade_cache_errors_total', { operation: 'invalidate' })).toBe(0);
    expect(logged).toEqual(['context cache lookup failed, carried on without it: Command timed out']);
    expect(await client.register.metrics()).toContain('shellgrade_cache_requests_total{result="error"} 1');
  });
});
