export * from './auth.controller';
export * from './auth-api.module';
export * from './session-http';
