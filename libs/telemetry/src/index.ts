/**
 * Tracing helpers for the other libs. Only @opentelemetry/api is imported here, so
 * importing @shellgrade/telemetry never starts the SDK (register.ts does that).
 */
export * from './span-names';
export * from './with-span';
export * from './propagation';
export * from './broker-spans';
export * from './traced-ports';
