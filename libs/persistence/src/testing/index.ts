// Test support (a fresh migrated database): a secondary entry point, @shellgrade/persistence/testing,
// so the runtime entry carries runtime code only. The seed data (load-test and test databases) is
// admin-cli's: @shellgrade/admin-cli/seed.
export * from './test-database';
