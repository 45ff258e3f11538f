/**
 * The real persistence and storage adapters, imported by file: their package entry points
 * also export Nest modules, and @nestjs/common 12 is ESM-only, which Jest cannot load on
 * Node 20. These files themselves depend only on pg and @shellgrade/domain.
 */
/* eslint-disable @nx/enforce-module-boundaries */
export { PgProductionRepository } from '../../../../libs/persistence/src/repositories/production.repository';
export { PgSubmissionContextReader } from '../../../../libs/persistence/src/repositories/submission-context.reader';
export { createPool } from '../../../../libs/persistence/src/pool';
export { createTestDatabase, type TestDatabase } from '../../../../libs/persistence/src/testing/test-database';
export { PostgresArchiveStore } from '../../../../libs/storage/src/postgres-archive-store';
