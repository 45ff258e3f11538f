import { createHttpApp, listen } from '@shellgrade/http';
import { gatewayIsHaproxy, loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf, listenAddressOf, serveTransport } from '@shellgrade/wiring';
import { serveWebAppWithConsole } from '@shellgrade/wiring/console';
import { LeftoverModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('leftover');
  const app = await createHttpApp(LeftoverModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade leftover service'));
  // gateway.engine haproxy: no Node gateway serves the browser app; HAProxy sends its paths here.
  if (gatewayIsHaproxy(cfg.spec)) serveWebAppWithConsole(app, cfg);
  await listen(app, listenAddressOf(cfg), `leftover-${cfg.replica}`);
  await serveTransport(app, cfg, `leftover-${cfg.replica}`); // spec.transport grpc: the gRPC edge beside it
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
