export * from './bodies';
export * from './requests';
export * from './paths';
export * from './openapi';
