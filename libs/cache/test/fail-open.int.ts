/**
 * Redis down or slow never fails or stalls a load: PostgreSQL answers and the error is reported.
 * The proof is an order of events, not a duration: each load returns while Redis is still
 * unreachable or stalled (a load that waited for Redis would never return before the test
 * resumes it). How long fail-open takes is a benchmark figure, not a test bound. "Down" is a closed port, or a proxy in front of the real Redis that cuts
 * and refuses connections; "slow" is the same proxy holding requests. When Redis is back the cache
 * resumes by itself (the connection reconnects in the background).
 */
import { PgSubmissionContextReader } from '@shellgrade/persistence';
import { CachedSubmissionContextReader } from '../src/cached-submission-context.reader';
import { CacheRedisConnection } from '../src/redis-connection';
import { RedisSubmissionContextCache } from '../src/redis-context-cache';
import { COMMAND_TIMEOUT_MS, CountedReader, REDIS_URL, seededDatabase, type SeededDatabase } from './support/real-servers';
import { RecordingObserver } from './support/recording-observer';
import { ControllableProxy, closedPort } from './support/tcp-proxy';

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('fail open (real PostgreSQL, Redis unreachable or slow)', () => {
  let database: SeededDatabase;
  const connections: CacheRedisConnection[] = [];
  const proxies: ControllableProxy[] = [];

  const wire = (url: string) => {
    const connection = new CacheRedisConnection({ url, keyPrefix: `sg-test-failopen-${process.pid}:`, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    connections.push(connection);
    const observer = new RecordingObserver();
    const cache = new RedisSubmissionContextCache(connection.client, { ttlSeconds: 60, observer });
    const postgres = new CountedReader(new PgSubmissionContextReader(database.pool));
    return { connection, observer, cache, postgres, reader: new CachedSubmissionContextReader(postgres, cache, observer) };
  };
  const exerciseId = () => database.seeded.csvExerciseId;
  const student = () => database.seeded.students[0]!;

  beforeAll(async () => {
    database = await seededDatabase(1);
  }, 60_000);

  afterAll(async () => {
    for (const connection of connections) await connection.close();
    for (const proxy of proxies) await proxy.close();
    const cleanup = new CacheRedisConnection({ url: REDIS_URL, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    if (await cleanup.whenReady(5_000)) {
      const keys = await cleanup.client.keys(`sg-test-failopen-${process.pid}:*`);
      if (keys.length > 0) await cleanup.client.del(...keys);
    }
    await cleanup.close();
    await database?.close();
  });

  it('a closed port: every load is answered by PostgreSQL at once and counted as an error', async () => {
    const { reader, observer, postgres, cache } = wire(`redis://127.0.0.1:${await closedPort()}`);
    const { userId, statementId } = student();
    const direct = await new PgSubmissionContextReader(database.pool).load(userId, statementId, exerciseId());
    for (let i = 0; i < 3; i++) {
      expect(await reader.load(userId, statementId, exerciseId())).toEqual(direct);
    }
    expect(postgres.calls).toBe(3);
    expect(observer.results).toEqual(['error', 'error', 'error']);
    expect(observer.failures).toEqual(['lookup', 'lookup', 'lookup']);

    await expect(cache.exerciseChanged(exerciseId())).resolves.toBeUndefined();
    await expect(cache.statementChanged(statementId)).resolves.toBeUndefined();
    expect(observer.failures.slice(3)).toEqual(['invalidate', 'invalidate']);
  });

  /** A reader whose Redis traffic goes through a proxy the test can stall or cut. */
  async function wireThroughProxy() {
    const target = new URL(REDIS_URL);
    const proxy = await ControllableProxy.start({ host: target.hostname, port: Number(target.port) });
    proxies.push(proxy);
    const wired = wire(`redis://127.0.0.1:${proxy.port}`);
    expect(await wired.connection.whenReady(5_000)).toBe(true);
    return { proxy, ...wired };
  }

  it('a stalled Redis: the lookup gives up after its command timeout and PostgreSQL answers', async () => {
    const { proxy, reader, observer } = await wireThroughProxy();
    const { userId, statementId } = student();
    await reader.load(userId, statementId, exerciseId());
    await reader.load(userId, statementId, exerciseId());
    expect(observer.results).toEqual(['miss', 'hit']);

    proxy.stall();
    // Answered while the proxy still holds every Redis request: the command timeout fired.
    expect(await reader.load(userId, statementId, exerciseId())).toMatchObject({ statement: { id: statementId, userId } });
    expect(observer.results[2]).toBe('error');

    proxy.resume();
    await eventually(async () => {
      await reader.load(userId, statementId, exerciseId());
      return observer.results.at(-1) === 'hit';
    });
  });

  it('Redis going down and coming back: fail open meanwhile, hits again once it is back', async () => {
    const { proxy, reader, observer, connection } = await wireThroughProxy();
    const { userId, statementId } = student();
    await reader.load(userId, statementId, exerciseId());

    await proxy.down();
    for (let i = 0; i < 3; i++) await reader.load(userId, statementId, exerciseId());
    expect(observer.results.slice(-3)).toEqual(['error', 'error', 'error']);

    await proxy.up();
    expect(await connection.whenReady(10_000)).toBe(true);
    await reader.load(userId, statementId, exerciseId());
    expect(observer.results.at(-1)).toBe('hit');
  });
});
