export * from './bullmq-config';
export * from './bullmq-connection';
export * from './bullmq-consumer';
export * from './bullmq-transport';
