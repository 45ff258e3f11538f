export * from './problem';
export * from './problem.filter';
export * from './zod.pipe';
export * from './cors';
export * from './observability';
export * from './bootstrap';
export * from './request-start';
