export * from './difference';
export * from './rank-test';
export * from './paired-ratio';
