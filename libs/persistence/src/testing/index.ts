// Test and tooling support (a fresh migrated database, load-test seed data): a secondary
export * from './received-production';
// entry point, @shellgrade/persistence/testing, so the runtime entry carries runtime code only.
export * from './seed';
export * from './test-database';
