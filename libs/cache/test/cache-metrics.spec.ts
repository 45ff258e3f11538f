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

  it('counts invalidations and the entries they dropped, and serves the hit ratio of the lookups so far', async () => {
    const observer = prometheusCacheObserver(() => undefined);
    const before = (await value('shellgrade_cache_invalidations_total', { what: 'statement' })) ?? 0;
    const droppedBefore = (await value('shellgrade_cache_invalidated_entries_total', { what: 'exercise' })) ?? 0;
    observer.invalidated('statement', 1);
    observer.invalidated('statement', 0);
    observer.invalidated('exercise', 3);
    expect(await value('shellgrade_cache_invalidations_total', { what: 'statement' })).toBe(before + 2);
    expect(await value('shellgrade_cache_invalidated_entries_total', { what: 'exercise' })).toBe(droppedBefore + 3);
    const count = async (result: string) => (await value('shellgrade_cache_requests_total', { result })) ?? 0;
    observer.request('miss');
    const [hit, miss, error] = [await count('hit'), await count('miss'), await count('error')];
    expect(await value('shellgrade_cache_hit_ratio', {})).toBeCloseTo(hit / (hit + miss + error));
    expect(hit).toBeGreaterThan(0);
    expect(miss).toBeGreaterThan(0);
  });
});
