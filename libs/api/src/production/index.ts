export * from './production-api.module';
export * from './production.controller';
export * from './submission-body';
export * from './production.view';
export * from './production-limits';
