import { createHttpApp, listen } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf, listenAddressOf } from '@shellgrade/wiring';
import { serveWebAppWithConsole } from '@shellgrade/wiring/console';
import { MonolithModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('monolith');
  const app = await createHttpApp(MonolithModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade monolith'));
  // The browser app (dist/apps/web) at /, beside the API; the console's /ops (Jaeger relay, presets, runs) for staff accounts and operators.
  serveWebAppWithConsole(app, cfg);
  await listen(app, listenAddressOf(cfg), `monolith-${cfg.replica}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
