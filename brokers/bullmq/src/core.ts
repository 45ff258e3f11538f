// Everything but the Nest module: what worker scripts and Jest tests import (Jest on Node 20
// cannot load ESM-only @nestjs/common, and a worker process needs no DI container).
export * from './bullmq-config';
export * from './bullmq-connection';
export * from './bullmq-dispatch';
export * from './bullmq-worker';
export { messageIdOf, productionIdOfMessageId, refuseSubmission, type RefusalCause } from '@shellgrade/dispatch';
