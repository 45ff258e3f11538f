import { type DynamicModule, Global, Logger, Module, type Provider } from '@nestjs/common';
import { ARCHIVE_STORE, type ArchiveStore } from '@shellgrade/domain';
import { PG_POOL } from '@shellgrade/persistence';
import { tracedArchiveStore } from '@shellgrade/telemetry';
import type { Pool } from 'pg';
import { MinioArchiveStore } from './minio-archive-store';
import type { MinioSettings } from './minio-client';
import { PostgresArchiveStore } from './postgres-archive-store';

/** The runtime-config field StorageModule reads. */
export interface StorageRuntimeConfig {
  SG_STORAGE: 'postgres' | 'minio';
  /** Read when SG_STORAGE=minio (the runtime config always has them, with loopback defaults). */
  MINIO_ENDPOINT?: string;
  MINIO_ACCESS_KEY?: string;
  MINIO_SECRET_KEY?: string;
  MINIO_BUCKET?: string;
  /** When true, ARCHIVE_STORE is wrapped in `storage.put` / `storage.get` spans (backend = SG_STORAGE). */
  SG_TRACING?: boolean;
}

/** The adapter itself, when ARCHIVE_STORE is its traced wrapper. */
const UNTRACED_ARCHIVE_STORE = Symbol('UntracedArchiveStore');

/** Nest provider binding ARCHIVE_STORE to the postgres adapter (needs PG_POOL, global in PersistenceModule). */
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
      new Logger('StorageModule').warn(`bucket ${settings.bucket} not ensured at startup: ${(error as Error).message}`);
    });
    return store;
  },
});

function minioSettings(cfg: StorageRuntimeConfig): MinioSettings {
  const { MINIO_ENDPOINT: endpoint, MINIO_ACCESS_KEY: accessKey, MINIO_SECRET_KEY: secretKey, MINIO_BUCKET: bucket } = cfg;
  if (!endpoint || !accessKey || !secretKey || !bucket) {
    throw new Error('SG_STORAGE=minio needs MINIO_ENDPOINT, MINIO_ACCESS_KEY, MINIO_SECRET_KEY and MINIO_BUCKET');
  }
  return { endpoint, accessKey, secretKey, bucket };
}

/** Global ARCHIVE_STORE for the storage a variant asks for (SG_STORAGE). */
@Global()
@Module({})
export class StorageModule {
  static forRoot(cfg: StorageRuntimeConfig, adapters: Partial<Record<StorageRuntimeConfig['SG_STORAGE'], Provider>> = {}): DynamicModule {
    const provider =
      adapters[cfg.SG_STORAGE] ??
      (cfg.SG_STORAGE === 'postgres' ? postgresArchiveStoreProvider : cfg.SG_STORAGE === 'minio' ? minioArchiveStoreProvider(minioSettings(cfg)) : undefined);
    if (!provider) throw new Error(`storage adapter '${cfg.SG_STORAGE}' is not available in this build`);
    const providers = cfg.SG_TRACING ? traced(provider, cfg.SG_STORAGE) : [provider];
    return { module: StorageModule, providers, exports: [ARCHIVE_STORE] };
  }
}

/** Re-binds the adapter under a private token and exposes its traced wrapper as ARCHIVE_STORE. */
function traced(provider: Provider, backend: string): Provider[] {
  const inner: Provider =
    typeof provider === 'function' ? { provide: UNTRACED_ARCHIVE_STORE, useClass: provider } : { ...provider, provide: UNTRACED_ARCHIVE_STORE };
  return [
    inner,
    { provide: ARCHIVE_STORE, inject: [UNTRACED_ARCHIVE_STORE], useFactory: (store: ArchiveStore) => tracedArchiveStore(store, backend) },
  ];
}
