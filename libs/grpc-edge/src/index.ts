export * from './edge-contract';
export * from './edge-client';
export * from './edge-server';
export * from './health-probe';
