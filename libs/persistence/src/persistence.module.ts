import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { CREDENTIAL_STORE, REFRESH_TOKEN_STORE } from '@shellgrade/auth';
import { PRODUCTION_REPOSITORY } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { createPool } from './pool';
import { PgEnrolmentRepository } from './repositories/enrolment.repository';
import { PgExerciseRepository } from './repositories/exercise.repository';
import { PgProductionRepository } from './repositories/production.repository';
import { PgRefreshTokenRepository } from './repositories/refresh-token.repository';
import { PgSequenceRepository } from './repositories/sequence.repository';
import { PgSessionRepository } from './repositories/session.repository';
import { PgStatementRepository } from './repositories/statement.repository';
import { PgSubmissionContextReader } from './repositories/submission-context.reader';
import { PgUserRepository } from './repositories/user.repository';

/** The process-wide pg.Pool (size SG_DB_POOL). */
export const PG_POOL = Symbol('PG_POOL');

/** HealthCheck[] (libs/http's shape) with a postgres round trip, for ObservabilityModule. */
export const HEALTH_CHECKS_TOKEN = Symbol('PersistenceHealthChecks');

/** The runtime-config fields this module reads. */
export interface PersistenceConfig {
  DATABASE_URL: string;
  /** Pool size of this process. */
  SG_DB_POOL: number;
}

@Injectable()
class PoolCloser implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

const REPOSITORIES = [
  PgUserRepository,
  PgRefreshTokenRepository,
  PgExerciseRepository,
  PgSequenceRepository,
  PgSessionRepository,
  PgEnrolmentRepository,
  PgStatementRepository,
  PgProductionRepository,
  PgSubmissionContextReader,
] as const;

/**
 * Global: every module of a service injects the repositories (by class), the domain port
 * PRODUCTION_REPOSITORY and auth's CREDENTIAL_STORE / REFRESH_TOKEN_STORE without importing
 * this module again. SUBMISSION_CONTEXT is bound by CacheModule (libs/cache), the one place
 * that knows whether PgSubmissionContextReader is read directly or through the Redis cache:
 * two global modules binding one token would resolve by import order.
 */
@Module({})
export class PersistenceModule {
  static forRoot(cfg: PersistenceConfig): DynamicModule {
    const repositories: Provider[] = REPOSITORIES.map((cls) => ({
      provide: cls,
      useFactory: (pool: Pool) => new cls(pool),
      inject: [PG_POOL],
    }));
    const providers: Provider[] = [
      { provide: PG_POOL, useFactory: () => createPool({ databaseUrl: cfg.DATABASE_URL, size: cfg.SG_DB_POOL }) },
      {
        provide: HEALTH_CHECKS_TOKEN,
        inject: [PG_POOL],
        useFactory: (pool: Pool) => [{ name: 'postgres', check: async () => void (await pool.query('SELECT 1')) }],
      },
      PoolCloser,
      ...repositories,
      { provide: PRODUCTION_REPOSITORY, useExisting: PgProductionRepository },
      { provide: CREDENTIAL_STORE, useExisting: PgUserRepository },
      { provide: REFRESH_TOKEN_STORE, useExisting: PgRefreshTokenRepository },
    ];
    return {
      module: PersistenceModule,
      global: true,
      providers,
      exports: [PG_POOL, HEALTH_CHECKS_TOKEN, ...REPOSITORIES, PRODUCTION_REPOSITORY, CREDENTIAL_STORE, REFRESH_TOKEN_STORE],
    };
  }
}
