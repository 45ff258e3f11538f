export * from './grading-reply';
export * from './pipeline-workers';
export * from './queue-consumer';
export * from './rabbitmq-connection';
export * from './pending-replies';
export * from './rabbitmq-transport';
export * from './topology';
