export * from './queue-dispatch';
export * from './queue-transport';
