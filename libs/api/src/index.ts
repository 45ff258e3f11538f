export * from './production';
export * from './admin';
