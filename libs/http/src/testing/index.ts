// Test support: a secondary entry point, @shellgrade/http/testing, so the runtime entry carries runtime code only.
export * from './app-options';
export * from './json-parse-watch';
