export * from './production';
export * from './wiring';
export * from './admin';
