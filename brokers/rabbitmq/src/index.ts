export * from './core';
export * from './rabbitmq.module';
