import type { CacheObserver, CacheOperation, CacheResult } from '../../src/context-cache';

/** Remembers every lookup result and failed operation, in order. */
export class RecordingObserver implements CacheObserver {
  results: CacheResult[] = [];
  failures: CacheOperation[] = [];
  request(result: CacheResult): void {
    this.results.push(result);
  }
  failed(operation: CacheOperation): void {
    this.failures.push(operation);
  }
}
