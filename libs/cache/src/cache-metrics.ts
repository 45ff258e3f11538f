/**
 * The cache's Prometheus counters, on prom-client's default registry (the one every
 * service's /metrics serves, see libs/http observability.ts), and its throttled error log.
 */
import client, { type Counter } from 'prom-client';
import type { CacheInvalidation, CacheObserver, CacheOperation, CacheResult } from './context-cache';

const RESULTS: CacheResult[] = ['hit', 'miss', 'error'];
const OPERATIONS: CacheOperation[] = ['lookup', 'decode', 'fill', 'invalidate'];
const INVALIDATIONS: CacheInvalidation[] = ['exercise', 'statement', 'productions'];

/** Registered once per process even when several modules or tests ask for it. */
function counter(name: string, help: string, labelName: string): Counter<string> {
  const existing = client.register.getSingleMetric(name);
  return (existing as Counter<string> | undefined) ?? new client.Counter({ name, help, labelNames: [labelName] });
}

/**
 * Which cache an observer counts: `context` (the SPS read path: shellgrade_cache_*) or `report`
 * (the productions a session report reads, S2: shellgrade_report_cache_*). Invalidations of both
 * are one counter, by what changed.
 */
export type CacheName = 'context' | 'report';
const PREFIX: Record<CacheName, string> = { context: 'shellgrade_cache', report: 'shellgrade_report_cache' };
const WHAT: Record<CacheName, string> = { context: 'Submission-context cache', report: 'Session-productions (report) cache' };

export const cacheRequests = (cache: CacheName = 'context') =>
  counter(`${PREFIX[cache]}_requests_total`, `${WHAT[cache]} lookups by result (error: Redis failed, the source answered)`, 'result');

export const cacheErrors = (cache: CacheName = 'context') =>
  counter(`${PREFIX[cache]}_errors_total`, `${WHAT[cache]} failures by operation (the request went on without the cache)`, 'operation');

export const cacheInvalidations = () =>
  counter('shellgrade_cache_invalidations_total', 'Cache invalidations that reached Redis, by what changed (exercise, statement, productions)', 'what');

export const cacheDroppedEntries = () =>
  counter('shellgrade_cache_invalidated_entries_total', 'Cached entries made unusable by invalidations, by what changed', 'what');

/** hits / (hits + misses + errors) of this process since it started; NaN before the first lookup. */
function registerHitRatio(cache: CacheName): void {
  const name = `${PREFIX[cache]}_hit_ratio`;
  if (client.register.getSingleMetric(name)) return;
  new client.Gauge({
    name,
    help: `Share of ${WHAT[cache]} lookups of this process answered from the cache since it started (NaN before the first)`,
    async collect() {
      const { values } = await cacheRequests(cache).get();
      const of = (result: CacheResult) => values.find((v) => v.labels.result === result)?.value ?? 0;
      const total = of('hit') + of('miss') + of('error');
      this.set(total === 0 ? Number.NaN : of('hit') / total);
    },
  });
}

/** Counts every answer and failure; logs failures at most once per interval (Redis down fails every request). */
export function prometheusCacheObserver(log: (line: string) => void, logIntervalMs = 10_000, cache: CacheName = 'context'): CacheObserver {
  const requests = cacheRequests(cache);
  const errors = cacheErrors(cache);
  const invalidations = cacheInvalidations();
  const dropped = cacheDroppedEntries();
  registerHitRatio(cache);
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
      warn(`${cache} cache ${operation} failed, carried on without it: ${error instanceof Error ? error.message : String(error)}`);
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
