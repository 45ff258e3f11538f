/** What CachedSubmissionContextReader needs from a cache store (Redis in production, a fake in unit tests). */

/** The change counters seen by a lookup; a fill presenting them is refused if either moved since. */
export interface FillGuard {
  exerciseGeneration: string | null;
  statementGeneration: string | null;
}

export interface ContextLookup {
  /** The encoded entry, or null on a miss. */
  entry: string | null;
  guard: FillGuard;
}

export interface SubmissionContextCache {
  /** Rejects when the store cannot answer (down, timed out). */
  lookup(statementId: number, exerciseId: number): Promise<ContextLookup>;
  /** Stores the entry unless the exercise or the statement changed since the lookup; true when stored. */
  fill(statementId: number, exerciseId: number, entry: string, guard: FillGuard): Promise<boolean>;
}

/** One answer of the cache, as shellgrade_cache_requests_total counts it. */
export type CacheResult = 'hit' | 'miss' | 'error';
/** Which step failed, as shellgrade_cache_errors_total counts it. */
export type CacheOperation = 'lookup' | 'decode' | 'fill' | 'invalidate';

/** What an invalidation dropped, as shellgrade_cache_invalidations_total counts it. */
export type CacheInvalidation = 'exercise' | 'statement' | 'productions';

/** Where the cache reports what happened (Prometheus counters and a throttled log in services). */
export interface CacheObserver {
  /** Once per load. */
  request(result: CacheResult): void;
  /** A step failed and the caller carried on without the cache. */
  failed(operation: CacheOperation, error: unknown): void;
  /** An invalidation reached the cache (`entries`: how many cached contexts it dropped). */
  invalidated(what: CacheInvalidation, entries: number): void;
}

export const silentCacheObserver: CacheObserver = { request: () => undefined, failed: () => undefined, invalidated: () => undefined };
