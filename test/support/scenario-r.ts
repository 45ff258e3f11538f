// Scenario R as a test client lives with the HTTP edge's tests (libs/http/test/support), where the
// libraries' own e2e kits can import it without reaching up into test/; system tests keep this path.
// eslint-disable-next-line @nx/enforce-module-boundaries
export * from '../../libs/http/test/support/scenario-r';
