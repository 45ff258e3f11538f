export * from './connections';
export * from './process-config';
export * from './spec';
export * from './loader';
export * from './processes';
export * from './service-config';
export * from './exposure';
export * from './hops';
