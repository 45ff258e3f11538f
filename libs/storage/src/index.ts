export * from './postgres-archive-store';
export * from './storage.providers';
export * from './minio-archive-store';
export * from './minio-client';
export * from './object-keys';
export * from './object-purge';
export * from './object-store-errors';
