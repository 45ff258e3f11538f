/**
 * spec.cache: what the read-path cache (libs/cache, paper 001) plugs into. Each port is bound
 * once — by the database's providers or here, never by both — so no binding depends on which
 * list a root spreads last:
 *
 * | port                                  | none                      | redis                                                        |
 * |---------------------------------------|---------------------------|--------------------------------------------------------------|
 * | SUBMISSION_CONTEXT (the SPS read)     | PgSubmissionContextReader | CachedSubmissionContextReader over it (read-through)         |
 * | SUBMISSION_CONTEXT_INVALIDATION       | does nothing              | RedisSubmissionContextCache                                  |
 * | EXERCISE_, STATEMENT_, ENROLMENT_REPOSITORY | PostgreSQL (database) | …WritesInvalidation over PostgreSQL (invalidate on write)  |
 * | PRODUCTION_REPOSITORY                 | PostgreSQL (database)     | ProductionWritesInvalidation (the report cache's generation) |
 * | SESSION_PRODUCTIONS (S2's read)       | its source                | CachedSessionProductions over its source                     |
 *
 * A write path added tomorrow invalidates because it writes through the port, not because it
 * remembers to. Redis down never fails a request (libs/cache fails open).
 */
import { Inject, Injectable, Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import {
  CACHE_REDIS,
  CachedSessionProductions,
  CachedSubmissionContextReader,
  connectCacheRedis,
  EnrolmentWritesInvalidation,
  ExerciseWritesInvalidation,
  ProductionsGeneration,
  ProductionWritesInvalidation,
  prometheusCacheObserver,
  RedisSubmissionContextCache,
  StatementWritesInvalidation,
  type CacheObserver,
  type CacheRedisConnection,
} from '@shellgrade/cache';
import {
  ENROLMENT_REPOSITORY,
  EXERCISE_REPOSITORY,
  noSubmissionContextCache,
  PRODUCTION_REPOSITORY,
  SESSION_PRODUCTIONS,
  STATEMENT_REPOSITORY,
  SUBMISSION_CONTEXT,
  SUBMISSION_CONTEXT_INVALIDATION,
  type SessionProductionsSource,
  type SubmissionContextInvalidation,
} from '@shellgrade/domain';
import {
  PgEnrolmentRepository,
  PgExerciseRepository,
  PgProductionRepository,
  PgStatementRepository,
  PgSubmissionContextReader,
  persistenceProviders,
  type DatabaseSettings,
} from '@shellgrade/persistence';
import { tokenOf } from './ports-module';

export type CacheKind = 'none' | 'redis';

/** The Redis read-path cache's settings (spec: cache: redis, cacheTtlS, cacheCommandTimeoutMs). */
export interface RedisCacheSettings {
  url: string;
  ttlSeconds: number;
  commandTimeoutMs: number;
}

const REDIS_CONTEXT_CACHE = Symbol('RedisSubmissionContextCache');
/** The counter every production write bumps (the report cache's staleness), on the cache's connection. */
const PRODUCTIONS_GENERATION = Symbol('ProductionsGeneration');
/** The context cache's observer: its counters and one throttled warning log. */
const CONTEXT_CACHE_OBSERVER = Symbol('ContextCacheObserver');

@Injectable()
class CacheRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(CACHE_REDIS) private readonly connection: CacheRedisConnection) {}
  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}

/**
 * The repository ports a cache must hear about, per spec.cache: none leaves the database's
 * bindings as they are; redis binds each to the decorator that invalidates on write, over the
 * PostgreSQL class.
 */
export const cachedWritePorts: Record<CacheKind, Provider[]> = {
  none: [],
  redis: [
    {
      provide: EXERCISE_REPOSITORY,
      inject: [PgExerciseRepository, SUBMISSION_CONTEXT_INVALIDATION],
      useFactory: (pg: PgExerciseRepository, contexts: SubmissionContextInvalidation) => new ExerciseWritesInvalidation(pg, contexts),
    },
    {
      provide: STATEMENT_REPOSITORY,
      inject: [PgStatementRepository, SUBMISSION_CONTEXT_INVALIDATION],
      useFactory: (pg: PgStatementRepository, contexts: SubmissionContextInvalidation) => new StatementWritesInvalidation(pg, contexts),
    },
    {
      provide: ENROLMENT_REPOSITORY,
      inject: [PgEnrolmentRepository, PgStatementRepository, SUBMISSION_CONTEXT_INVALIDATION],
      useFactory: (pg: PgEnrolmentRepository, statements: PgStatementRepository, contexts: SubmissionContextInvalidation) =>
        new EnrolmentWritesInvalidation(pg, statements, contexts),
    },
    {
      provide: PRODUCTION_REPOSITORY,
      inject: [PgProductionRepository, PRODUCTIONS_GENERATION],
      useFactory: (pg: PgProductionRepository, generation: ProductionsGeneration) => new ProductionWritesInvalidation(pg, generation),
    },
  ],
};

/** PostgreSQL's providers with the write ports `cache` decorates bound once, to the decorators (the redis half needs redisSubmissionContextProviders beside it). */
export function databaseProviders(db: DatabaseSettings, cache: CacheKind): Provider[] {
  return withBindings(persistenceProviders(db), cachedWritePorts[cache]);
}

/** `providers` with `replacements` bound in place of their bindings of the same tokens: each token once, whatever the order. */
export function withBindings(providers: Provider[], replacements: Provider[]): Provider[] {
  const replaced = new Set(replacements.map(tokenOf));
  return [...providers.filter((p) => !replaced.has(tokenOf(p))), ...replacements];
}

/** cache: none — SPS read PostgreSQL directly and there is nothing to invalidate. */
export const directSubmissionContextProviders: Provider[] = [
  { provide: SUBMISSION_CONTEXT, useExisting: PgSubmissionContextReader },
  { provide: SUBMISSION_CONTEXT_INVALIDATION, useValue: noSubmissionContextCache },
];

/**
 * cache: redis — the connection (a start waits at most 2 s for it, then goes on without;
 * closed at shutdown), SUBMISSION_CONTEXT through it (fail-open), SUBMISSION_CONTEXT_INVALIDATION
 * to it (what the write decorators tell), and the productions' generation counter.
 */
export function redisSubmissionContextProviders({ url, ttlSeconds, commandTimeoutMs }: RedisCacheSettings): Provider[] {
  const logger = new Logger('SubmissionContextCache');
  return [
    { provide: CONTEXT_CACHE_OBSERVER, useFactory: () => prometheusCacheObserver((line) => logger.warn(line)) },
    { provide: CACHE_REDIS, useFactory: () => connectCacheRedis({ url, commandTimeoutMs }, (line) => logger.warn(line)) },
    CacheRedisCloser,
    {
      provide: REDIS_CONTEXT_CACHE,
      inject: [CACHE_REDIS, CONTEXT_CACHE_OBSERVER],
      useFactory: (connection: CacheRedisConnection, observer: CacheObserver) => new RedisSubmissionContextCache(connection.client, { ttlSeconds, observer }),
    },
    {
      provide: SUBMISSION_CONTEXT,
      inject: [PgSubmissionContextReader, REDIS_CONTEXT_CACHE, CONTEXT_CACHE_OBSERVER],
      useFactory: (postgres: PgSubmissionContextReader, cache: RedisSubmissionContextCache, observer: CacheObserver) =>
        new CachedSubmissionContextReader(postgres, cache, observer),
    },
    { provide: SUBMISSION_CONTEXT_INVALIDATION, useExisting: REDIS_CONTEXT_CACHE },
    {
      provide: PRODUCTIONS_GENERATION,
      inject: [CACHE_REDIS, CONTEXT_CACHE_OBSERVER],
      useFactory: (connection: CacheRedisConnection, observer: CacheObserver) => new ProductionsGeneration(connection.client, observer),
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
