export * from './runtime-config';
export * from './spec';
export * from './loader';
export * from './processes';
