/**
 * Tracing helpers for the other libs. Only @opentelemetry/api is imported here, so
 * importing @shellgrade/telemetry never starts the SDK (startTracingUntilExit does that,
 * called by the preload in libs/wiring).
 */
export * from './span-names';
export * from './with-span';
export * from './broker-spans';
export * from './traced-ports';
export { startTracingUntilExit } from './tracing-lifecycle';
export type { TelemetrySettings } from './sdk';
