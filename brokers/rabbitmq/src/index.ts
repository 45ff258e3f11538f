export * from './grading-reply';
export * from './pending-replies';
export * from './rabbitmq-connection';
export * from './rabbitmq-consumer';
export * from './rabbitmq-dispatch';
export * from './topology';
