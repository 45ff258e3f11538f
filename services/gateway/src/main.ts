/**
 * Composition root of the API gateway (MSA variants): read SG_* configuration, build the
 * gateway app from @shellgrade/gateway, listen, and drain on SIGTERM/SIGINT.
 */
import { Logger } from '@nestjs/common';
import { createGatewayApp, gatewayConfigFrom } from '@shellgrade/gateway';
import { loadRuntimeConfig } from '@shellgrade/variant';

async function main(): Promise<void> {
  const runtime = loadRuntimeConfig();
  const config = gatewayConfigFrom(runtime);
  const name = `gateway-${runtime.SG_REPLICA}`;
  const log = new Logger(name);
  const app = await createGatewayApp(config);
  await app.listen(runtime.SG_PORT, runtime.SG_HOST);
  log.log(
    `listening on http://${runtime.SG_HOST}:${runtime.SG_PORT}; exercise → ${config.exerciseUrls.join(', ')}; ` +
      `leftover → ${config.leftoverUrls.join(', ')}`,
  );

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
