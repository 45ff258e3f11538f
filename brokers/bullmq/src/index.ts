export * from './core';
export * from './bullmq.module';
