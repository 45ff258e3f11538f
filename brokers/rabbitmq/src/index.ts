export * from './grading-reply';
export * from './pipeline-workers';
export * from './queue-consumer';
export * from './rabbitmq-connection';
export * from './rabbitmq-dispatch';
export * from './topology';
