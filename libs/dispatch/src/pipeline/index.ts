export * from './filters';
export * from './pipeline-message';
