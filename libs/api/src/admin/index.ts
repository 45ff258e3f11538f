export * from './leftover-api.module';
export * from './users.controller';
export * from './exercises.controller';
export * from './sequences.controller';
export * from './sessions.controller';
export * from './statements.controller';
export * from './productions-list.controller';
export * from './views';
