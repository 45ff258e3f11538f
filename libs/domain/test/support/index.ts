// Test support (in-memory fakes of the domain's ports): a secondary entry point, @shellgrade/domain/testing, for unit tests only.
export * from './port-fakes';
