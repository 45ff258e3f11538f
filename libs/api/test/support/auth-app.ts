/**
 * An HTTP app of AuthModule over the real PostgreSQL stores, with the services' HTTP edge: what
 * the auth integration tests start (not started here: `init()` for supertest, `listen` for a URL).
 */
import { Global, Module, type Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { ACCESS_STATE_CHANGES, ACCESS_STATE_READER, AuthModule, type AccessStateChanges, CREDENTIAL_STORE, REFRESH_TOKEN_STORE, type AuthConfig, type CredentialStore } from '@shellgrade/auth';
import { configureHttpApp } from '@shellgrade/http';
import { AuthApiModule } from '../../src/auth';
import { PgRefreshTokenRepository, PgUserRepository } from '@shellgrade/persistence';
import type { Pool } from 'pg';

export interface AuthAppOptions {
  /** The credential store (default: PostgreSQL's), e.g. one that counts its reads. */
  credentials?: CredentialStore;
  /** Bind ACCESS_STATE_READER as the services do: a first request reads token version and session in one round trip. */
  oneReadAccessState?: boolean;
  controllers?: Type[];
  /** Bind ACCESS_STATE_CHANGES as the services do: the auth caches hear the database's change notifications. */
  accessStateChanges?: AccessStateChanges;
}

export async function authApp(pool: Pool, cfg: AuthConfig, opts: AuthAppOptions = {}): Promise<NestExpressApplication> {
  const accessState = [
    ...(opts.oneReadAccessState ? [{ provide: ACCESS_STATE_READER, useExisting: REFRESH_TOKEN_STORE }] : []),
    ...(opts.accessStateChanges ? [{ provide: ACCESS_STATE_CHANGES, useValue: opts.accessStateChanges }] : []),
  ];
  @Global()
  @Module({
    providers: [
      { provide: CREDENTIAL_STORE, useValue: opts.credentials ?? new PgUserRepository(pool) },
      { provide: REFRESH_TOKEN_STORE, useValue: new PgRefreshTokenRepository(pool) },
      ...accessState,
    ],
    exports: [CREDENTIAL_STORE, REFRESH_TOKEN_STORE, ...accessState.map((p) => p.provide)],
  })
  class Stores {}
  const moduleRef = await Test.createTestingModule({ imports: [Stores, AuthModule.forRoot(cfg), AuthApiModule], controllers: opts.controllers ?? [] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>();
  configureHttpApp(app, { title: 'test', corsOrigins: '', maxArchiveBytes: 1024 * 1024, opsAccess: 'public', keepAliveMs: 65_000, requestTimeoutMs: 120_000 });
  return app;
}
