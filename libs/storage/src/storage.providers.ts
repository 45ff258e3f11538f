import { Logger, type Provider } from '@nestjs/common';
import { ARCHIVE_STORE, type ArchiveStore } from '@shellgrade/domain';
import { PG_POOL } from '@shellgrade/persistence';
import { tracedArchiveStore } from '@shellgrade/telemetry';
import type { Pool } from 'pg';
import { MinioArchiveStore } from './minio-archive-store';
import type { MinioSettings } from './minio-client';
import { PostgresArchiveStore } from './postgres-archive-store';

/** The adapter itself, when ARCHIVE_STORE is its traced wrapper. */
const UNTRACED_ARCHIVE_STORE = Symbol('UntracedArchiveStore');

/** ARCHIVE_STORE bound to the postgres adapter (bytea beside the row; needs PG_POOL). */
export const postgresArchiveStoreProvider: Provider = {
  provide: ARCHIVE_STORE,
  inject: [PG_POOL],
  useFactory: (pool: Pool) => new PostgresArchiveStore(pool),
};

/**
 * ARCHIVE_STORE bound to MinIO (needs PG_POOL for the rows' sha256/size/key). The bucket is
 * created at startup; an object store that is down then only logs, so the service still
 * starts and SPS answers 503 until the store is back (put recreates a missing bucket).
 */
export const minioArchiveStoreProvider = (settings: MinioSettings): Provider => ({
  provide: ARCHIVE_STORE,
  inject: [PG_POOL],
  useFactory: async (pool: Pool) => {
    const store = MinioArchiveStore.create(pool, settings);
    await store.ensureBucket().catch((error: unknown) => {
      new Logger('ArchiveStore').warn(`bucket ${settings.bucket} not ensured at startup: ${(error as Error).message}`);
    });
    return store;
  },
});

/** Wraps an ARCHIVE_STORE provider in `storage.put` / `storage.get` spans labelled `backend`. */
export function tracedArchiveStoreProviders(provider: Provider, backend: string): Provider[] {
  const inner: Provider =
    typeof provider === 'function' ? { provide: UNTRACED_ARCHIVE_STORE, useClass: provider } : { ...provider, provide: UNTRACED_ARCHIVE_STORE };
  return [
    inner,
    { provide: ARCHIVE_STORE, inject: [UNTRACED_ARCHIVE_STORE], useFactory: (store: ArchiveStore) => tracedArchiveStore(store, backend) },
  ];
}
