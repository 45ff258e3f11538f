/**
 * Empties the read-path cache (paper 001's cold start): every key of the submission-context
 * cache (cache-keys.ts, `sg:ctx:*`) and nothing else, so a BullMQ queue or the rate-limit
 * counters sharing the same Redis are untouched. `variant up` calls it unless told
 * `--keep-cache`; a benchmark run then starts from the same cold cache every time.
 */
import { Redis } from 'ioredis';
import { CACHE_KEY_PATTERN, productionsGenerationKey } from './cache-keys';

export interface CacheFlushSettings {
  url: string;
  /** A Redis that does not answer within this long fails the flush (the caller says so). */
  timeoutMs?: number;
}

/** Deletes every cache key (SCAN + UNLINK, never KEYS or FLUSHDB); resolves with how many were deleted. */
export async function flushContextCache(settings: CacheFlushSettings): Promise<number> {
  return withRedis(settings, async (redis) => {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', CACHE_KEY_PATTERN, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  });
}

/**
 * Productions changed behind the services' back (`db reset` deletes them all): the cached
 * session productions (S2 reports) of every replica become stale at once, as after any write.
 */
export async function markProductionsChanged(settings: CacheFlushSettings): Promise<void> {
  await withRedis(settings, (redis) => redis.incr(productionsGenerationKey()));
}

async function withRedis<T>({ url, timeoutMs = 5_000 }: CacheFlushSettings, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined); // the rejected command says it
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
