import { cacheDelta, parseCacheCounters, parseRedisInfo, runCacheStats } from '../src/sweep/cache-stats';

const metrics = (hit: number, miss: number) => `# HELP shellgrade_cache_requests_total x
# TYPE shellgrade_cache_requests_total counter
shellgrade_cache_requests_total{result="hit"} ${hit}
shellgrade_cache_requests_total{result="miss"} ${miss}
shellgrade_cache_requests_total{result="error"} 1
shellgrade_cache_invalidations_total{what="exercise"} 2
shellgrade_cache_invalidations_total{what="statement"} 3
shellgrade_cache_invalidated_entries_total{what="statement"} 4
shellgrade_cache_hit_ratio NaN
process_cpu_seconds_total 12
`;

describe('cache stats of a run', () => {
  it('reads the cache counters of /metrics and the hit ratio over the run', () => {
    const before = parseCacheCounters(metrics(10, 5));
    expect(before).toEqual({ hit: 10, miss: 5, error: 1, invalidations: 5, invalidatedEntries: 4 });
    const d = cacheDelta('sg-exercise-0', before, parseCacheCounters(metrics(40, 15)));
    expect(d).toEqual({ process: 'sg-exercise-0', hit: 30, miss: 10, error: 0, invalidations: 0, invalidatedEntries: 0, hitRatio: 0.75 });
  });

  it('has no hit ratio without lookups, and counts from zero after a restart', () => {
    expect(cacheDelta('p', parseCacheCounters(metrics(10, 5)), parseCacheCounters(metrics(10, 5))).hitRatio).toBeNull();
    expect(cacheDelta('p', parseCacheCounters(metrics(10, 5)), parseCacheCounters(metrics(3, 1))).hit).toBe(3);
  });

  it("reads Redis's CPU, memory and keys from INFO", () => {
    const info = '# CPU\r\nused_cpu_sys:1.50\r\nused_cpu_user:2.25\r\n# Memory\r\nused_memory:1048576\r\n# Keyspace\r\ndb0:keys=3,expires=0\r\ndb12:keys=4,expires=1\r\n';
    expect(parseRedisInfo(info)).toEqual({ cpuS: 3.75, usedMemoryBytes: 1048576, keys: 7 });
  });
});

describe('report cache counters', () => {
  it('are read apart from the submission-context ones', () => {
    const text = 'shellgrade_cache_requests_total{result="hit"} 4\nshellgrade_report_cache_requests_total{result="hit"} 9\nshellgrade_report_cache_requests_total{result="miss"} 1\n';
    expect(parseCacheCounters(text, 'report')).toMatchObject({ hit: 9, miss: 1 });
    expect(parseCacheCounters(text, 'context')).toMatchObject({ hit: 4, miss: 0 });
  });
});

describe('cache stats of a scenario-R run', () => {
  it('are the per-process deltas of both caches, a process that appeared counting from zero', () => {
    const c = (hit: number, miss: number) => ({ hit, miss, error: 0, invalidations: 0, invalidatedEntries: 0 });
    const before = new Map([['sg-exercise-0', { context: c(5, 5), report: c(0, 0) }]]);
    const after = new Map([
      ['sg-exercise-0', { context: c(15, 10), report: c(0, 0) }],
      ['sg-exercise-1', { context: c(3, 1), report: c(0, 0) }],
    ]);
    const stats = runCacheStats(before, after);
    expect(stats.context.map((s) => [s.process, s.hit, s.miss, s.hitRatio])).toEqual([
      ['sg-exercise-0', 10, 5, 10 / 15],
      ['sg-exercise-1', 3, 1, 0.75],
    ]);
    expect(stats.report.every((s) => s.hitRatio === null)).toBe(true);
  });
});
