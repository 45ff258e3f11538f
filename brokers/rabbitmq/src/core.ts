// Everything but the Nest module: what worker scripts and Jest tests import (Jest on Node 20
// cannot load ESM-only @nestjs/common, and a worker process needs no DI container).
export * from './grading-message';
export * from './pending-replies';
export * from './rabbitmq-config';
export * from './rabbitmq-connection';
export * from './rabbitmq-consumer';
export * from './rabbitmq-dispatch';
export {
  gradingMessageSchema,
  messageIdOf,
  refuseSubmission,
  type GradingMessage,
  type RefusalCause,
} from '@shellgrade/dispatch';
export * from './topology';
