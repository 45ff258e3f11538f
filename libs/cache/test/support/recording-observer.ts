import type { CacheInvalidation, CacheObserver, CacheOperation, CacheResult } from '../../src/context-cache';

/** Remembers every lookup result, failed operation and invalidation, in order. */
export class RecordingObserver implements CacheObserver {
  results: CacheResult[] = [];
  failures: CacheOperation[] = [];
  invalidations: [CacheInvalidation, number][] = [];
  request(result: CacheResult): void {
    this.results.push(result);
  }
  failed(operation: CacheOperation): void {
    this.failures.push(operation);
  }
  invalidated(what: CacheInvalidation, entries: number): void {
    this.invalidations.push([what, entries]);
  }
}
