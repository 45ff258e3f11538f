/**
 * The cache's Prometheus counters, on prom-client's default registry (the one every
 * service's /metrics serves, see libs/http observability.ts), and its throttled error log.
 */
import client, { type Counter } from 'prom-client';
import type { CacheInvalidation, CacheObserver, CacheOperation, CacheResult } from './context-cache';

const RESULTS: CacheResult[] = ['hit', 'miss', 'error'];
const OPERATIONS: CacheOperation[] = ['lookup', 'decode', 'fill', 'invalidate'];
const INVALIDATIONS: CacheInvalidation[] = ['exercise', 'statement'];

/** Registered once per process even when several modules or tests ask for it. */
function counter(name: string, help: string, labelName: string): Counter<string> {
  const existing = client.register.getSingleMetric(name);
  return (existing as Counter<string> | undefined) ?? new client.Counter({ name, help, labelNames: [labelName] });
}

export const cacheRequests = () =>
  counter('shellgrade_cache_requests_total', 'Submission-context cache lookups by result (error: Redis failed, PostgreSQL answered)', 'result');

export const cacheErrors = () =>
  counter('shellgrade_cache_errors_total', 'Submission-context cache failures by operation (the request went on without the cache)', 'operation');

export const cacheInvalidations = () =>
  counter('shellgrade_cache_invalidations_total', 'Submission-context cache invalidations that reached Redis, by what changed (exercise, statement)', 'what');

export const cacheDroppedEntries = () =>
  counter('shellgrade_cache_invalidated_entries_total', 'Cached submission contexts deleted by invalidations, by what changed', 'what');

/** hits / (hits + misses + errors) of this process since it started; NaN before the first lookup. */
function registerHitRatio(): void {
  if (client.register.getSingleMetric('shellgrade_cache_hit_ratio')) return;
  new client.Gauge({
    name: 'shellgrade_cache_hit_ratio',
    help: 'Share of submission-context lookups of this process answered from the cache since it started (NaN before the first)',
    async collect() {
      const { values } = await cacheRequests().get();
      const of = (result: CacheResult) => values.find((v) => v.labels.result === result)?.value ?? 0;
      const total = of('hit') + of('miss') + of('error');
      this.set(total === 0 ? Number.NaN : of('hit') / total);
    },
  });
}

/** Counts every answer and failure; logs failures at most once per interval (Redis down fails every request). */
export function prometheusCacheObserver(log: (line: string) => void, logIntervalMs = 10_000): CacheObserver {
  const requests = cacheRequests();
  const errors = cacheErrors();
  const invalidations = cacheInvalidations();
  const dropped = cacheDroppedEntries();
  registerHitRatio();
  // Zero series from the start, so a dashboard sees hit/miss/error before the first one happens.
  for (const result of RESULTS) requests.inc({ result }, 0);
  for (const operation of OPERATIONS) errors.inc({ operation }, 0);
  for (const what of INVALIDATIONS) {
    invalidations.inc({ what }, 0);
    dropped.inc({ what }, 0);
  }
  const warn = throttled(log, logIntervalMs);
  return {
    request: (result) => requests.inc({ result }),
    failed: (operation, error) => {
      errors.inc({ operation });
      warn(`context cache ${operation} failed, carried on without it: ${error instanceof Error ? error.message : String(error)}`);
    },
    invalidated: (what, entries) => {
      invalidations.inc({ what });
      dropped.inc({ what }, entries);
    },
  };
}

/** The first line, then at most one per interval with the number of lines held back. */
export function throttled(log: (line: string) => void, intervalMs: number, now: () => number = Date.now): (line: string) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let heldBack = 0;
  return (line) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      heldBack++;
      return;
    }
    log(heldBack > 0 ? `${line} (${heldBack} more since the last report)` : line);
    lastAt = at;
    heldBack = 0;
  };
}
