import { createHttpApp, listen } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf, serveTransport } from '@shellgrade/wiring';
import { LeftoverModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('leftover');
  const app = await createHttpApp(LeftoverModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade leftover service'));
  await listen(app, cfg.host, cfg.port, `leftover-${cfg.replica}`);
  await serveTransport(app, cfg, `leftover-${cfg.replica}`); // spec.transport grpc: the gRPC edge beside it
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
