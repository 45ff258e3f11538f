export * from './bodies';
export * from './openapi';
