/** The cold start of `variant up` (every run starts from an empty cache): the cache's keys go, nothing else in the same Redis does. */
import { Redis } from 'ioredis';
import { flushContextCache } from '../src/flush';
import { contextKey, exerciseGenerationKey, exerciseIndexKey, statementGenerationKey } from '../src/cache-keys';
import { REDIS_URL } from './support/real-servers';
import { closedPort } from './support/tcp-proxy';

/** A logical database of its own, away from BullMQ (db 0), the variants' cache and the other cache tests. */
const PRIVATE_DB = 12;
const url = (() => {
  const u = new URL(REDIS_URL);
  u.pathname = `/${PRIVATE_DB}`;
  return u.toString();
})();

describe('flushContextCache (real Redis)', () => {
  const redis = new Redis(url);
  afterAll(() => redis.quit());

  it('deletes every cache key, however many, and leaves queues and rate-limit counters alone', async () => {
    await redis.flushdb();
    const cacheKeys = [exerciseGenerationKey(3), exerciseIndexKey(3), statementGenerationKey(4), ...Array.from({ length: 2_500 }, (_, i) => contextKey(i + 1))];
    await redis.mset(...cacheKeys.flatMap((k) => [k, '1']));
    await redis.mset('bull:grading:1', 'job', 'sg-rl:login:1', '3', 'other', 'x');
    expect(await flushContextCache({ url })).toBe(cacheKeys.length);
    expect((await redis.keys('*')).sort()).toEqual(['bull:grading:1', 'other', 'sg-rl:login:1']);
    expect(await flushContextCache({ url })).toBe(0);
  });

  it('rejects when Redis cannot be reached (the launcher says so instead of claiming a cold cache)', async () => {
    const port = await closedPort();
    await expect(flushContextCache({ url: `redis://127.0.0.1:${port}`, timeoutMs: 500 })).rejects.toThrow();
  });
});
