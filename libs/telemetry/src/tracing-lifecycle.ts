/**
 * Starts the OpenTelemetry SDK for the rest of the process's life and flushes it once on the
 * way out. Called by the preload (libs/wiring/src/telemetry-preload.ts) before the application
 * requires http, express, pg or Nest, so their instrumentation hooks are in place.
 */
import type { TelemetrySettings } from './sdk';

/** Below pm2's kill_timeout (8 s), so a slow collector cannot hold a stopping service until it is killed without its counts logged. */
const SHUTDOWN_FLUSH_MS = 6_000;

export function startTracingUntilExit(settings: TelemetrySettings): void {
  // Loaded here, not at the top: only a traced process pays for the SDK and instrumentations.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTelemetry } = require('./sdk') as typeof import('./sdk');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { exposeSpanCounts, logSpanCounts } = require('./span-metrics') as typeof import('./span-metrics');
  const running = startTelemetry(settings);
  exposeSpanCounts(running.counts);

  // Flush buffered spans once, whichever comes first: a signal or the loop running dry.
  let flushed: Promise<void> | undefined;
  const flush = () =>
    (flushed ??= Promise.race([
      running.shutdown().then(() => 'flushed' as const),
      new Promise<'timed out'>((resolve) => setTimeout(resolve, SHUTDOWN_FLUSH_MS, 'timed out').unref()),
    ])
      .then((outcome) => {
        if (outcome === 'timed out') console.error(`[telemetry] span flush still running after ${SHUTDOWN_FLUSH_MS} ms, exiting anyway`);
      })
      .catch((error: unknown) => console.error('telemetry shutdown failed:', error))
      .finally(() => logSpanCounts(running.counts)));
  const onSignal = (signal: NodeJS.Signals) => {
    // Ours replaced the default action: exit once the application has no handler left
    // (Nest's shutdown hook removes its own and re-raises the signal after closing).
    void flush().finally(() => {
      if (process.listenerCount(signal) <= 1) process.exit(0);
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.once('beforeExit', () => void flush());
}
