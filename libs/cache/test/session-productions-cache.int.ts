/** The S2 cache (paper 001's data-heavy request class) against the real Redis: hits, never stale after a production write, fail open. */
import type { ExerciseProduction, ProductionRepository, SessionProductionRecord, SessionProductionsSource } from '@shellgrade/domain';
import { Redis } from 'ioredis';
import { CachedSessionProductions, decodeSessionProductions, encodeSessionProductions, ProductionsGeneration, ProductionWritesInvalidation } from '../src/session-productions-cache';
import { markProductionsChanged } from '../src/flush';
import { REDIS_URL } from './support/real-servers';
import { RecordingObserver } from './support/recording-observer';
import { closedPort } from './support/tcp-proxy';

const PRIVATE_DB = 11;
const url = (() => {
  const u = new URL(REDIS_URL);
  u.pathname = `/${PRIVATE_DB}`;
  return u.toString();
})();

const row = (id: number, grade: number | null = 50): SessionProductionRecord => ({
  productionId: id,
  userId: 1,
  exerciseId: 2,
  statementId: 3,
  status: grade === null ? 'queued' : 'graded',
  grade,
  createdAt: new Date(1_700_000_000_000 + id),
});

/** A source whose answer the test changes, counting the calls (each one is an internal hop). */
class Source implements SessionProductionsSource {
  rows: SessionProductionRecord[] = [row(1)];
  calls = 0;
  async productionsOfSession(): Promise<SessionProductionRecord[]> {
    this.calls++;
    return this.rows.map((r) => ({ ...r }));
  }
}

/** The production repository as far as the writes go. */
const fakeRepository = (): ProductionRepository =>
  ({
    create: async () => ({ production: { id: 9 } as ExerciseProduction, created: true }),
    complete: async () => ({ id: 9 }) as ExerciseProduction,
    setStatus: async () => undefined,
    delete: async () => undefined,
    deleteAll: async () => 0,
    reclaimInterrupted: async () => [],
    findById: async () => null,
  }) as ProductionRepository;

describe('session productions cache (real Redis)', () => {
  const redis = new Redis(url);
  beforeEach(() => redis.flushdb());
  afterAll(() => redis.quit());

  it('round-trips rows through its compact encoding', () => {
    const rows = [row(1), row(2, null)];
    expect(decodeSessionProductions(encodeSessionProductions('7', rows))).toEqual({ generation: '7', rows });
    expect(decodeSessionProductions('{"generation":"1","rows":[[1,1,1,1,99,0,0]]}')).toBeNull();
  });

  it('answers a second report from Redis, and reads the source again after any production write', async () => {
    const source = new Source();
    const observer = new RecordingObserver();
    const cached = new CachedSessionProductions(source, redis, { ttlSeconds: 60, observer });
    const writes = new ProductionWritesInvalidation(fakeRepository(), new ProductionsGeneration(redis, observer));
    expect(await cached.productionsOfSession(5, {})).toEqual([row(1)]);
    expect(await cached.productionsOfSession(5, {})).toEqual([row(1)]);
    expect(source.calls).toBe(1);

    source.rows = [row(1), row(2, 100)];
    await writes.complete(2, { grade: 100, comment: [] });
    expect(await cached.productionsOfSession(5, {})).toEqual([row(1), row(2, 100)]);
    expect(source.calls).toBe(2);
    expect(observer.results).toEqual(['miss', 'hit', 'miss']);
    expect(observer.invalidations).toEqual([['productions', 1]]);
  });

  it('is stale after `db reset` deleted productions behind the services (markProductionsChanged)', async () => {
    const source = new Source();
    const cached = new CachedSessionProductions(source, redis, { ttlSeconds: 60 });
    await cached.productionsOfSession(5, {});
    source.rows = [];
    await markProductionsChanged({ url });
    expect(await cached.productionsOfSession(5, {})).toEqual([]);
    expect(source.calls).toBe(2);
  });

  it('does not keep what was read while a production was written (the entry carries the generation seen before the read)', async () => {
    const observer = new RecordingObserver();
    const generation = new ProductionsGeneration(redis, observer);
    const source = new Source();
    source.productionsOfSession = async () => {
      source.calls++;
      await generation.bump(); // a grade stored while the report was being read
      return [row(1)];
    };
    const cached = new CachedSessionProductions(source, redis, { ttlSeconds: 60 });
    await cached.productionsOfSession(5, {});
    await cached.productionsOfSession(5, {});
    expect(source.calls).toBe(2);
  });

  it('fails open: with Redis unreachable every report reads the source, and writes still succeed', async () => {
    const down = new Redis(`redis://127.0.0.1:${await closedPort()}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    down.on('error', () => undefined);
    const source = new Source();
    const observer = new RecordingObserver();
    const cached = new CachedSessionProductions(source, down, { ttlSeconds: 60, observer });
    expect(await cached.productionsOfSession(5, {})).toEqual([row(1)]);
    await new ProductionWritesInvalidation(fakeRepository(), new ProductionsGeneration(down, observer)).delete(3);
    expect(observer.results).toEqual(['error']);
    expect(observer.failures).toEqual(['lookup', 'invalidate']);
    down.disconnect();
  });
});
