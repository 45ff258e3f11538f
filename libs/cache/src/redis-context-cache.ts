import type { SubmissionContextInvalidation } from '@shellgrade/domain';
import type { Redis } from 'ioredis';
import { contextKey, exerciseGenerationKey, exerciseIndexKey, statementGenerationKey } from './cache-keys';
import { type CacheObserver, type ContextLookup, type FillGuard, type SubmissionContextCache, silentCacheObserver } from './context-cache';

export interface RedisContextCacheOptions {
  /** Lifetime of an entry (spec: cacheTtlS): bounds staleness from writes the API did not see. */
  ttlSeconds: number;
  observer?: CacheObserver;
}

/**
 * Stores the entry only if neither change counter moved since the lookup, and indexes the
 * statement under its exercise, atomically (a script runs alone on the server).
 * KEYS: context, exercise index, exercise generation, statement generation.
 * ARGV: entry, ttl seconds, exercise generation seen, statement generation seen, statement id
 * ('' stands for a counter that did not exist).
 */
const FILL_IF_UNCHANGED = `
if (redis.call('GET', KEYS[3]) or '') ~= ARGV[3] or (redis.call('GET', KEYS[4]) or '') ~= ARGV[4] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1
`;

/**
 * The submission-context cache in Redis (keys in cache-keys.ts), and its invalidation. One
 * round trip per lookup (MGET of the entry and the two change counters), one per fill (the
 * script above), one or two per invalidation. Invalidations never reject: a failure is
 * reported to the observer and the entry lives at most its TTL.
 */
export class RedisSubmissionContextCache implements SubmissionContextCache, SubmissionContextInvalidation {
  private readonly observer: CacheObserver;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisContextCacheOptions,
  ) {
    this.observer = options.observer ?? silentCacheObserver;
  }

  async lookup(statementId: number, exerciseId: number): Promise<ContextLookup> {
    const [entry, exerciseGeneration, statementGeneration] = await this.redis.mget(
      contextKey(statementId),
      exerciseGenerationKey(exerciseId),
      statementGenerationKey(statementId),
    );
    return { entry: entry ?? null, guard: { exerciseGeneration: exerciseGeneration ?? null, statementGeneration: statementGeneration ?? null } };
  }

  async fill(statementId: number, exerciseId: number, entry: string, guard: FillGuard): Promise<boolean> {
    const stored = await this.redis.eval(
      FILL_IF_UNCHANGED,
      4,
      contextKey(statementId),
      exerciseIndexKey(exerciseId),
      exerciseGenerationKey(exerciseId),
      statementGenerationKey(statementId),
      entry,
      this.options.ttlSeconds,
      guard.exerciseGeneration ?? '',
      guard.statementGeneration ?? '',
      statementId,
    );
    return stored === 1;
  }

  /** Drops the context of every statement of the exercise (the index set lists them). */
  async exerciseChanged(exerciseId: number): Promise<void> {
    try {
      const generation = exerciseGenerationKey(exerciseId);
      const index = exerciseIndexKey(exerciseId);
      // Bump first: from here on, a fill whose lookup came before this change is refused.
      const replies = await this.redis.multi().incr(generation).expire(generation, this.generationTtl()).smembers(index).exec();
      const statementIds = execReply<string[]>(replies, 2);
      const deleted = await this.redis.del(index, ...statementIds.map((id) => contextKey(Number(id))));
      this.observer.invalidated('exercise', Math.max(0, deleted - (statementIds.length > 0 ? 1 : 0)));
    } catch (error) {
      this.observer.failed('invalidate', error);
    }
  }

  async statementChanged(statementId: number): Promise<void> {
    try {
      const generation = statementGenerationKey(statementId);
      const replies = await this.redis.multi().incr(generation).expire(generation, this.generationTtl()).del(contextKey(statementId)).exec();
      this.observer.invalidated('statement', execReply<number>(replies, 2));
    } catch (error) {
      this.observer.failed('invalidate', error);
    }
  }

  /** A counter only has to outlive the misses in flight when it moves; the entry TTL is plenty. */
  private generationTtl(): number {
    return this.options.ttlSeconds;
  }
}

/** The reply of command `index` of a MULTI, rejecting on a failed or discarded transaction. */
function execReply<T>(replies: [Error | null, unknown][] | null, index: number): T {
  if (!replies) throw new Error('redis transaction discarded');
  const failed = replies.find(([error]) => error);
  if (failed) throw failed[0];
  return replies[index]![1] as T;
}
