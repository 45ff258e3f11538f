import type { SubmissionContext, SubmissionContextReader } from '@shellgrade/domain';
import { contextAnswers, decodeContextEntry, encodeContextEntry } from './context-entry';
import { type CacheObserver, type ContextLookup, type SubmissionContextCache, silentCacheObserver } from './context-cache';

/**
 * The read path of every SPS through a cache (paper 001): a hit answers without PostgreSQL, a
 * miss reads the inner reader and fills the cache. Fails open: whatever the cache does (down,
 * slow, garbage), the answer is the inner reader's and only the cache's errors are counted.
 *
 * The cache is keyed by statement id; an entry is only returned to the statement's own user and
 * exercise, anything else goes to the inner reader, which answers not-found as it always did.
 */
export class CachedSubmissionContextReader implements SubmissionContextReader {
  constructor(
    private readonly inner: SubmissionContextReader,
    private readonly cache: SubmissionContextCache,
    private readonly observer: CacheObserver = silentCacheObserver,
  ) {}

  async load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext> {
    let lookup: ContextLookup;
    try {
      lookup = await this.cache.lookup(statementId, exerciseId);
    } catch (error) {
      this.observer.failed('lookup', error);
      this.observer.request('error');
      return this.inner.load(userId, statementId, exerciseId);
    }

    const cached = lookup.entry === null ? null : decodeContextEntry(lookup.entry);
    if (cached && contextAnswers(cached, userId, exerciseId)) {
      this.observer.request('hit');
      return cached;
    }
    if (lookup.entry !== null && !cached) {
      this.observer.failed('decode', new Error(`unreadable cache entry for statement ${statementId}`));
      this.observer.request('error');
    } else {
      this.observer.request('miss');
    }

    const context = await this.inner.load(userId, statementId, exerciseId);
    await this.fill(statementId, exerciseId, context, lookup);
    return context;
  }

  /** Awaited (one round trip on a miss) so the next load sees the entry; never rejects. */
  private async fill(statementId: number, exerciseId: number, context: SubmissionContext, lookup: ContextLookup): Promise<void> {
    try {
      await this.cache.fill(statementId, exerciseId, encodeContextEntry(context), lookup.guard);
    } catch (error) {
      this.observer.failed('fill', error);
    }
  }
}
