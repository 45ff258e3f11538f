/**
 * Preload entry every service runs with: `node -r dist/libs/wiring/src/telemetry-preload.js
 * dist/services/<role>/src/main.js`. It reads the tracing settings off the validated process
 * config and, only when the spec traces, starts the SDK before the application requires http,
 * express, pg or Nest. With tracing off the SDK is never loaded (the
 * telemetry library's entry imports only @opentelemetry/api; the SDK is required on start).
 */
import { isMainThread } from 'node:worker_threads';
import { startTracingUntilExit } from '@shellgrade/telemetry';
import { tracingSettingsOf } from './tracing-settings';

// Node also runs `-r` preloads in the module-loader hooks thread; the SDK belongs in the main thread only.
if (isMainThread) {
  const settings = tracingSettingsOf(process.env);
  if (settings) startTracingUntilExit(settings);
}
