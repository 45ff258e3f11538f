export * from './console-routes';
export * from './console-server';
export * from './console-session';
export * from './ops-results';
export * from './ops-console';
export * from './ops-bench-cli';
export * from './ops-process-group';
export { trendArgs } from './ops-trend';
