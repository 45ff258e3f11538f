/**
 * The S2 cache (paper 001: what a cache buys a service that pulls lots of data from another).
 * With `cache: redis`, the productions of a session that a report reads (SESSION_PRODUCTIONS:
 * the Exercise service over HTTP in msa, PostgreSQL in the monolith) are kept in Redis, so a
 * second report of the session skips the internal hop.
 *
 * Never stale: every production write (create, status, grade, delete — wherever it happens, on
 * any replica: PRODUCTION_REPOSITORY is wrapped by ProductionWritesInvalidation) bumps one
 * counter, and an entry is only answered while the counter still has the value it was read
 * under. A report read while a grade was being stored is refused at the next lookup. Writes the
 * API does not see (`npm run db -- reset`) are bounded by the entry's TTL; `variant up` starts
 * with none (flush.ts).
 */
import type {
  ExerciseProduction,
  NewProduction,
  OnBehalfOf,
  ProductionOutcome,
  ProductionRepository,
  ProductionStatus,
  SessionProductionRecord,
  SessionProductionsSource,
} from '@shellgrade/domain';
import type { Redis } from 'ioredis';
import { productionsGenerationKey, sessionProductionsKey } from './cache-keys';
import { type CacheObserver, silentCacheObserver } from './context-cache';

const STATUSES: ProductionStatus[] = ['received', 'queued', 'grading', 'graded', 'failed'];

/** One row as a compact tuple: id, user, exercise, statement, status index, grade, created (epoch ms). */
type Row = [number, number, number, number, number, number | null, number];
interface Entry {
  generation: string;
  rows: Row[];
}

export const encodeSessionProductions = (generation: string, rows: SessionProductionRecord[]): string =>
  JSON.stringify({
    generation,
    rows: rows.map((r): Row => [r.productionId, r.userId, r.exerciseId, r.statementId, STATUSES.indexOf(r.status), r.grade, r.createdAt.getTime()]),
  } satisfies Entry);

/** null for anything that is not an entry this version wrote. */
export function decodeSessionProductions(text: string): { generation: string; rows: SessionProductionRecord[] } | null {
  try {
    const e = JSON.parse(text) as Entry;
    if (typeof e.generation !== 'string' || !Array.isArray(e.rows)) return null;
    const rows = e.rows.map(([productionId, userId, exerciseId, statementId, status, grade, createdAt]) => {
      const s = STATUSES[status];
      if (!s || !Number.isFinite(createdAt)) throw new Error('bad row');
      return { productionId, userId, exerciseId, statementId, status: s, grade, createdAt: new Date(createdAt) };
    });
    return { generation: e.generation, rows };
  } catch {
    return null;
  }
}

export interface SessionProductionsCacheOptions {
  ttlSeconds: number;
  observer?: CacheObserver;
}

/** SESSION_PRODUCTIONS through Redis; fails open (Redis down or slow: the inner source answers). */
export class CachedSessionProductions implements SessionProductionsSource {
  private readonly observer: CacheObserver;

  constructor(
    private readonly inner: SessionProductionsSource,
    private readonly redis: Redis,
    private readonly options: SessionProductionsCacheOptions,
  ) {
    this.observer = options.observer ?? silentCacheObserver;
  }

  async productionsOfSession(sessionId: number, onBehalfOf: OnBehalfOf): Promise<SessionProductionRecord[]> {
    let entry: string | null;
    let generation: string;
    try {
      const [e, g] = await this.redis.mget(sessionProductionsKey(sessionId), productionsGenerationKey());
      entry = e ?? null;
      generation = g ?? '0';
    } catch (error) {
      this.observer.failed('lookup', error);
      this.observer.request('error');
      return this.inner.productionsOfSession(sessionId, onBehalfOf);
    }
    const cached = entry === null ? null : decodeSessionProductions(entry);
    if (cached && cached.generation === generation) {
      this.observer.request('hit');
      return cached.rows;
    }
    if (entry !== null && !cached) {
      this.observer.failed('decode', new Error(`unreadable session productions entry for session ${sessionId}`));
      this.observer.request('error');
    } else {
      this.observer.request('miss');
    }
    const rows = await this.inner.productionsOfSession(sessionId, onBehalfOf);
    try {
      // Tagged with the generation seen BEFORE the read: a write during the read makes it stale at once.
      await this.redis.set(sessionProductionsKey(sessionId), encodeSessionProductions(generation, rows), 'EX', this.options.ttlSeconds);
    } catch (error) {
      this.observer.failed('fill', error);
    }
    return rows;
  }
}

/** Bumps the productions generation; never rejects (a write that happened is not failed by its cache). */
export class ProductionsGeneration {
  constructor(
    private readonly redis: Redis,
    private readonly observer: CacheObserver = silentCacheObserver,
  ) {}

  async bump(): Promise<void> {
    try {
      await this.redis.incr(productionsGenerationKey());
      this.observer.invalidated('productions', 1);
    } catch (error) {
      this.observer.failed('invalidate', error);
    }
  }
}

/** PRODUCTION_REPOSITORY whose every write makes the cached session productions stale (awaited: the next report on any replica sees it). */
export class ProductionWritesInvalidation implements ProductionRepository {
  constructor(
    private readonly inner: ProductionRepository,
    private readonly generation: ProductionsGeneration,
  ) {}

  async create(p: NewProduction): Promise<{ production: ExerciseProduction; created: boolean }> {
    const r = await this.inner.create(p);
    if (r.created) await this.generation.bump();
    return r;
  }
  findById(id: number): Promise<ExerciseProduction | null> {
    return this.inner.findById(id);
  }
  async setStatus(id: number, status: 'queued' | 'grading'): Promise<void> {
    await this.inner.setStatus(id, status);
    await this.generation.bump();
  }
  async complete(id: number, outcome: ProductionOutcome): Promise<ExerciseProduction | null> {
    const changed = await this.inner.complete(id, outcome);
    if (changed) await this.generation.bump();
    return changed;
  }
  async delete(id: number): Promise<void> {
    await this.inner.delete(id);
    await this.generation.bump();
  }
  async deleteAll(): Promise<number> {
    const n = await this.inner.deleteAll();
    await this.generation.bump();
    return n;
  }
  async reclaimInterrupted(olderThanMs: number, limit: number): Promise<number[]> {
    const ids = await this.inner.reclaimInterrupted(olderThanMs, limit);
    if (ids.length > 0) await this.generation.bump();
    return ids;
  }
}
