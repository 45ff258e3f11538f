/**
 * Composition root of the API gateway (MSA variants): read the process config, build the
 * gateway app from @shellgrade/gateway (it reaches the services over spec.transport; with
 * gateway.pattern offloading it checks logins itself, through the wiring's database reader),
 * listen, and drain on SIGTERM/SIGINT.
 */
import { Logger } from '@nestjs/common';
import { createGatewayApp } from '@shellgrade/gateway';
import { listen } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { gatewayConfigOf, gatewayOffloadingOf, listenAddressOf } from '@shellgrade/wiring';
import { serveGatewayWebAppWithConsole } from '@shellgrade/wiring/console';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('gateway');
  const config = gatewayConfigOf(cfg);
  const name = `gateway-${cfg.replica}`;
  const log = new Logger(name);
  const offloading = gatewayOffloadingOf(cfg);
  const app = await createGatewayApp(config, { offloading });
  // The browser app (dist/apps/web) at /, beside the API; the console's /ops for operators, and for staff
  // accounts where the gateway checks logins itself (pattern offloading).
  serveGatewayWebAppWithConsole(app, cfg, offloading?.authenticator);
  await listen(app, listenAddressOf(cfg), name);
  log.log(`exercise → ${config.exerciseUrls.join(', ')}; leftover → ${config.leftoverUrls.join(', ')}`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.log(`${signal}: finishing in-flight requests`);
    // In-flight requests complete; a stuck upstream cannot hold the process past the timeout.
    const force = setTimeout(() => process.exit(0), config.upstreamTimeoutMs + 1000);
    force.unref();
    app
      .close()
      .then(() => offloading?.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error(error);
        process.exit(1);
      });
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
