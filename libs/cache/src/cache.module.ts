import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { SUBMISSION_CONTEXT, SUBMISSION_CONTEXT_INVALIDATION, noSubmissionContextCache } from '@shellgrade/domain';
import { PgSubmissionContextReader } from '@shellgrade/persistence';
import { prometheusCacheObserver, throttled } from './cache-metrics';
import { CachedSubmissionContextReader } from './cached-submission-context.reader';
import { CacheRedisConnection, type CacheRedisSettings } from './redis-connection';
import { RedisSubmissionContextCache } from './redis-context-cache';

/** The runtime-config fields CacheModule reads. */
export interface CacheRuntimeConfig {
  SG_CACHE: 'none' | 'redis';
  /** Read when SG_CACHE=redis (the runtime config always has it, with a loopback default). */
  REDIS_URL?: string;
  SG_CACHE_TTL_S?: number;
}

export const DEFAULT_CACHE_TTL_S = 300;
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
const directProviders: Provider[] = [
  { provide: SUBMISSION_CONTEXT, useExisting: PgSubmissionContextReader },
  { provide: SUBMISSION_CONTEXT_INVALIDATION, useValue: noSubmissionContextCache },
];

function redisProviders(settings: CacheRedisSettings, ttlSeconds: number): Provider[] {
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
  ];
}

/**
 * Global SUBMISSION_CONTEXT (the SPS read path) and SUBMISSION_CONTEXT_INVALIDATION (told by
 * the exercise and statement controllers) for the cache a variant asks for (SG_CACHE). Every
 * service root imports it, after PersistenceModule's repositories are available (global):
 * with `none` it binds the PostgreSQL reader and a no-op invalidation, with `redis` the cached
 * reader and the Redis invalidation, and closes its connection on shutdown.
 */
@Module({})
export class CacheModule {
  static forRoot(cfg: CacheRuntimeConfig): DynamicModule {
    let providers: Provider[];
    if (cfg.SG_CACHE === 'none') providers = directProviders;
    else if (cfg.SG_CACHE === 'redis') providers = redisProviders(redisSettings(cfg), cfg.SG_CACHE_TTL_S ?? DEFAULT_CACHE_TTL_S);
    else throw new Error(`cache '${String(cfg.SG_CACHE)}' is not available in this build`);
    const exported = cfg.SG_CACHE === 'redis' ? [SUBMISSION_CONTEXT, SUBMISSION_CONTEXT_INVALIDATION, CACHE_REDIS] : [SUBMISSION_CONTEXT, SUBMISSION_CONTEXT_INVALIDATION];
    return { module: CacheModule, global: true, providers, exports: exported };
  }
}

function redisSettings(cfg: CacheRuntimeConfig): CacheRedisSettings {
  if (!cfg.REDIS_URL) throw new Error('SG_CACHE=redis needs REDIS_URL');
  return { url: cfg.REDIS_URL };
}
