export * from './difference';
export * from './rank-test';
