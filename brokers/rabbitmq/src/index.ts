export * from './grading-reply';
export * from './pending-replies';
export * from './pipeline-workers';
export * from './queue-consumer';
export * from './rabbitmq-connection';
export * from './rabbitmq-consumer';
export * from './rabbitmq-dispatch';
export * from './topology';
