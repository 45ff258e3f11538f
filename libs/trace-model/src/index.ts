export * from './span';
export * from './normalize';
export * from './critical-path';
