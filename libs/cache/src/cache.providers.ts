import { Inject, Injectable, Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import {
  noSubmissionContextCache,
  PRODUCTION_REPOSITORY,
  SESSION_PRODUCTIONS,
  SUBMISSION_CONTEXT,
  SUBMISSION_CONTEXT_INVALIDATION,
  type SessionProductionsSource,
} from '@shellgrade/domain';
import { PgProductionRepository, PgSubmissionContextReader } from '@shellgrade/persistence';
import { prometheusCacheObserver, throttled } from './cache-metrics';
import { CachedSubmissionContextReader } from './cached-submission-context.reader';
import { CacheRedisConnection, type CacheRedisSettings } from './redis-connection';
import { RedisSubmissionContextCache } from './redis-context-cache';
import { CachedSessionProductions, ProductionsGeneration, ProductionWritesInvalidation } from './session-productions-cache';

/** The Redis read-path cache's settings (spec: cache: redis, cacheTtlS, cacheCommandTimeoutMs). */
export interface RedisCacheSettings {
  url: string;
  ttlSeconds: number;
  commandTimeoutMs: number;
}

/** How long a starting service waits for Redis before it starts without it (fail open). */
const STARTUP_WAIT_MS = 2_000;

/** The module's Redis connection (exported for tests and health probes). */
export const CACHE_REDIS = Symbol('CacheRedisConnection');
const REDIS_CONTEXT_CACHE = Symbol('RedisSubmissionContextCache');

@Injectable()
class CacheRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(CACHE_REDIS) private readonly connection: CacheRedisConnection) {}
  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}

/** cache: none — SPS read PostgreSQL directly and there is nothing to invalidate. */
export const directSubmissionContextProviders: Provider[] = [
  { provide: SUBMISSION_CONTEXT, useExisting: PgSubmissionContextReader },
  { provide: SUBMISSION_CONTEXT_INVALIDATION, useValue: noSubmissionContextCache },
];

/**
 * cache: redis — SUBMISSION_CONTEXT is the cached reader (fail-open: Redis down means
 * PostgreSQL), SUBMISSION_CONTEXT_INVALIDATION (told by the exercise and statement
 * controllers) goes to Redis, and the connection is closed at shutdown.
 */
export function redisSubmissionContextProviders({ url, ttlSeconds, commandTimeoutMs }: RedisCacheSettings): Provider[] {
  const settings: CacheRedisSettings = { url, commandTimeoutMs };
  const logger = new Logger('SubmissionContextCache');
  const observer = prometheusCacheObserver((line) => logger.warn(line));
  return [
    {
      provide: CACHE_REDIS,
      useFactory: async () => {
        const reportConnection = throttled((line) => logger.warn(line), 10_000);
        const connection = new CacheRedisConnection(settings, (error) => reportConnection(`redis ${settings.url}: ${error.message}`));
        if (!(await connection.whenReady(STARTUP_WAIT_MS))) {
          logger.warn(`redis ${settings.url} not reachable at startup: submission contexts are read from PostgreSQL until it is`);
        }
        return connection;
      },
    },
    CacheRedisCloser,
    {
      provide: REDIS_CONTEXT_CACHE,
      inject: [CACHE_REDIS],
      useFactory: (connection: CacheRedisConnection) => new RedisSubmissionContextCache(connection.client, { ttlSeconds, observer }),
    },
    {
      provide: SUBMISSION_CONTEXT,
      inject: [PgSubmissionContextReader, REDIS_CONTEXT_CACHE],
      useFactory: (postgres: PgSubmissionContextReader, cache: RedisSubmissionContextCache) =>
        new CachedSubmissionContextReader(postgres, cache, observer),
    },
    { provide: SUBMISSION_CONTEXT_INVALIDATION, useExisting: REDIS_CONTEXT_CACHE },
    // Rebinds the port persistenceProviders bound (these providers come after the database's in
    // every root): each production write makes the cached session productions (S2) stale.
    {
      provide: PRODUCTION_REPOSITORY,
      inject: [PgProductionRepository, CACHE_REDIS],
      useFactory: (productions: PgProductionRepository, connection: CacheRedisConnection) =>
        new ProductionWritesInvalidation(productions, new ProductionsGeneration(connection.client, observer)),
    },
  ];
}

/** What SESSION_PRODUCTIONS reads when there is no cache (bound by the wiring: PostgreSQL or the Exercise service). */
export const SESSION_PRODUCTIONS_SOURCE = Symbol('SessionProductionsSource (uncached)');

/** cache: none — a report reads its session's productions from the source every time. */
export const directSessionProductionsProviders: Provider[] = [{ provide: SESSION_PRODUCTIONS, useExisting: SESSION_PRODUCTIONS_SOURCE }];

/**
 * cache: redis — a report's session productions through Redis (S2, paper 001), on the
 * connection of redisSubmissionContextProviders (bound beside them), counted as
 * shellgrade_report_cache_* on /metrics.
 */
export function redisSessionProductionsProviders({ ttlSeconds }: Pick<RedisCacheSettings, 'ttlSeconds'>): Provider[] {
  const logger = new Logger('SessionProductionsCache');
  const observer = prometheusCacheObserver((line) => logger.warn(line), 10_000, 'report');
  return [
    {
      provide: SESSION_PRODUCTIONS,
      inject: [SESSION_PRODUCTIONS_SOURCE, CACHE_REDIS],
      useFactory: (source: SessionProductionsSource, connection: CacheRedisConnection) => new CachedSessionProductions(source, connection.client, { ttlSeconds, observer }),
    },
  ];
}
