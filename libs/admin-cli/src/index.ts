export * from './db-commands';
export * from './stats';
export * from './storage-commands';
export * from './sweep';
