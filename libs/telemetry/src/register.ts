/**
 * Preload entry: `node -r ./dist/libs/telemetry/src/register.js dist/services/<role>/src/main.js`.
 * It must run before the application requires http, express, pg or Nest so their
 * instrumentation hooks are in place. With SG_TRACING unset/false it returns at once
 * without loading the SDK, so the untraced variant pays nothing.
 */
import { isMainThread } from 'node:worker_threads';
import { isTracingEnabled, settingsFromEnv } from './settings';

// Node also runs `-r` preloads in the module-loader hooks thread; the SDK belongs in the main thread only.
if (isMainThread && isTracingEnabled(process.env)) {
  // Loaded lazily: the SDK and instrumentations are only required when tracing is on.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTelemetry } = require('./sdk') as typeof import('./sdk');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { exposeSpanCounts, logSpanCounts } = require('./span-metrics') as typeof import('./span-metrics');
  const running = startTelemetry(settingsFromEnv(process.env));
  exposeSpanCounts(running.counts);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Flush buffered spans before exiting; the application's own shutdown runs in parallel.
    running
      .shutdown()
      .catch((error: unknown) => console.error('telemetry shutdown failed:', error))
      .finally(() => {
        logSpanCounts(running.counts);
        if (process.listenerCount(signal) === 0) process.exit(0);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A process that simply runs out of work (scripts, tests) still flushes its last batch.
  process.once('beforeExit', () => void running.shutdown().finally(() => logSpanCounts(running.counts)));
}
