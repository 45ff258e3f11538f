export * from './launch-progress';
