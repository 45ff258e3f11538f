export * from './postgres-archive-store';
export * from './storage.module';
