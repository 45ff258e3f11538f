import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { ARCHIVE_STORE } from '@shellgrade/domain';
import { PG_POOL } from '@shellgrade/persistence';
import type { Pool } from 'pg';
import { PostgresArchiveStore } from './postgres-archive-store';

/** The runtime-config field StorageModule reads. */
export interface StorageRuntimeConfig {
  SG_STORAGE: 'postgres' | 'minio';
}

/** Nest provider binding ARCHIVE_STORE to the postgres adapter (needs PG_POOL, global in PersistenceModule). */
export const postgresArchiveStoreProvider: Provider = {
  provide: ARCHIVE_STORE,
  inject: [PG_POOL],
  useFactory: (pool: Pool) => new PostgresArchiveStore(pool),
};

/** Global ARCHIVE_STORE for the storage a variant asks for (SG_STORAGE). */
@Global()
@Module({})
export class StorageModule {
  static forRoot(cfg: StorageRuntimeConfig, adapters: Partial<Record<StorageRuntimeConfig['SG_STORAGE'], Provider>> = {}): DynamicModule {
    const provider = adapters[cfg.SG_STORAGE] ?? (cfg.SG_STORAGE === 'postgres' ? postgresArchiveStoreProvider : undefined);
    if (!provider) throw new Error(`storage adapter '${cfg.SG_STORAGE}' is not available in this build`);
    return { module: StorageModule, providers: [provider], exports: [ARCHIVE_STORE] };
  }
}
