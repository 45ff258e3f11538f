// The seed: a load-test-ready database (accounts, catalog, sequence, session, enrolments, statements),
// the k6 users CSV, and a received production of a seeded student. `npm run db -- seed` runs it;
// tests and benchmarks seed their databases with it (an Nx project of its own, type:fixture, so that
// they may; runtime code never does: .dependency-cruiser.cjs no-runtime-to-tool).
export * from './seed';
export * from './received-production';
