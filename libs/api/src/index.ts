export * from './production';
export * from './wiring';
