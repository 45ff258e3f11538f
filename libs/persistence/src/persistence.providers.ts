import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { ACCESS_STATE_CHANGES, ACCESS_STATE_READER, CREDENTIAL_STORE, REFRESH_TOKEN_STORE } from '@shellgrade/auth';
import { PgAccessStateChanges } from './access-state-changes';
import {
  ENROLMENT_REPOSITORY,
  EXERCISE_REPOSITORY,
  GRADING_BACKLOG,
  PRODUCTION_LISTING,
  PRODUCTION_REPOSITORY,
  SEQUENCE_REPOSITORY,
  SESSION_REPOSITORY,
  SESSION_ROSTER,
  STATEMENT_REPOSITORY,
  STORED_SESSION_PRODUCTIONS,
  USER_REPOSITORY,
} from '@shellgrade/domain';
import type { Pool } from 'pg';
import { createPool } from './pool';
import { observePool } from './pool-metrics';
import { PgEnrolmentRepository } from './repositories/enrolment.repository';
import { PgGradingBacklog } from './repositories/grading-backlog.reader';
import { PgExerciseRepository } from './repositories/exercise.repository';
import { PgProductionRepository } from './repositories/production.repository';
import { PgRefreshTokenRepository } from './repositories/refresh-token.repository';
import { PgSequenceRepository } from './repositories/sequence.repository';
import { PgSessionRepository } from './repositories/session.repository';
import { PgSessionProductions, PgSessionRosterReader } from './repositories/session-report.reader';
import { PgStatementRepository } from './repositories/statement.repository';
import { PgSubmissionContextReader } from './repositories/submission-context.reader';
import { PgUserRepository } from './repositories/user.repository';

/** The process-wide pg.Pool. */
export const PG_POOL = Symbol('PG_POOL');

/** HealthCheck[] (libs/http's shape) with a postgres round trip, for ObservabilityModule. */
export const HEALTH_CHECKS_TOKEN = Symbol('PersistenceHealthChecks');

export interface DatabaseSettings {
  url: string;
  /** Connections of this process (spec: database.pool). */
  poolSize: number;
  /** An idle pooled connection is closed after this long (spec: database.idleTimeoutMs). */
  idleTimeoutMs: number;
  /** PostgreSQL's synchronous_commit on the pool's connections (spec: database.synchronousCommit). */
  synchronousCommit?: 'on' | 'off';
}

/** A pool with these settings (the PG_POOL below, and any other pool a wiring opens from the same spec). */
export function poolOf(db: DatabaseSettings): Pool {
  return createPool({ databaseUrl: db.url, size: db.poolSize, idleTimeoutMs: db.idleTimeoutMs, synchronousCommit: db.synchronousCommit });
}

@Injectable()
class PoolCloser implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

/** The listening connection's liveness check: a silently dead connection is noticed (and the caches emptied) within this. */
const ACCESS_STATE_CHECK_MS = 5_000;

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
  PgSessionRosterReader,
  PgSessionProductions,
  PgGradingBacklog,
] as const;

/**
 * The PostgreSQL adapter's bindings: the pool (closed at shutdown), its health check, every
 * repository (by class), the ports PRODUCTION_REPOSITORY, GRADING_BACKLOG, SESSION_ROSTER, CREDENTIAL_STORE
 * and REFRESH_TOKEN_STORE, and the catalogue's ports (USER_REPOSITORY … PRODUCTION_LISTING). SESSION_PRODUCTIONS is bound by the wiring (in-process PgSessionProductions
 * in the monolith, the Exercise service over HTTP in msa). SUBMISSION_CONTEXT is bound by the cache's providers, the one place
 * that knows whether PgSubmissionContextReader is read directly or through Redis.
 */
export function persistenceProviders(db: DatabaseSettings): Provider[] {
  return [
    {
      provide: PG_POOL,
      useFactory: () => {
        const pool = poolOf(db);
        observePool(pool);
        return pool;
      },
    },
    {
      provide: HEALTH_CHECKS_TOKEN,
      inject: [PG_POOL],
      useFactory: (pool: Pool) => [{ name: 'postgres', check: async () => void (await pool.query('SELECT 1')) }],
    },
    PoolCloser,
    ...REPOSITORIES.map((cls) => ({ provide: cls, useFactory: (pool: Pool) => new cls(pool), inject: [PG_POOL] })),
    { provide: PRODUCTION_REPOSITORY, useExisting: PgProductionRepository },
    { provide: GRADING_BACKLOG, useExisting: PgGradingBacklog },
    { provide: SESSION_ROSTER, useExisting: PgSessionRosterReader },
    { provide: CREDENTIAL_STORE, useExisting: PgUserRepository },
    { provide: REFRESH_TOKEN_STORE, useExisting: PgRefreshTokenRepository },
    { provide: ACCESS_STATE_READER, useExisting: PgRefreshTokenRepository },
    // Connects only when libs/auth's AccessStateWatcher watches it (notifiedCacheMs > 0).
    { provide: ACCESS_STATE_CHANGES, useFactory: () => new PgAccessStateChanges({ databaseUrl: db.url, checkEveryMs: ACCESS_STATE_CHECK_MS }) },
    // The catalogue's ports, what the HTTP controllers inject (libs/domain/src/catalog-ports.ts).
    { provide: USER_REPOSITORY, useExisting: PgUserRepository },
    { provide: EXERCISE_REPOSITORY, useExisting: PgExerciseRepository },
    { provide: SEQUENCE_REPOSITORY, useExisting: PgSequenceRepository },
    { provide: SESSION_REPOSITORY, useExisting: PgSessionRepository },
    { provide: ENROLMENT_REPOSITORY, useExisting: PgEnrolmentRepository },
    { provide: STATEMENT_REPOSITORY, useExisting: PgStatementRepository },
    { provide: PRODUCTION_LISTING, useExisting: PgProductionRepository },
    { provide: STORED_SESSION_PRODUCTIONS, useExisting: PgSessionProductions },
  ];
}
