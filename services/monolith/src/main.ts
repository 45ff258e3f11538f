import { join } from 'node:path';
import { createHttpApp, listen, serveWebApp } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf } from '@shellgrade/wiring';
import { MonolithModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('monolith');
  const app = await createHttpApp(MonolithModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade monolith'));
  // The browser app (dist/apps/web) at /, beside the API; the Jaeger relay for its trace view (internal callers only).
  serveWebApp(app, { dir: join(__dirname, '../../../apps/web'), maxArchiveBytes: cfg.spec.http.maxArchiveBytes, opsAccess: cfg.spec.http.opsAccess, jaegerQueryUrl: process.env.SG_JAEGER_URL ?? 'http://127.0.0.1:16686' });
  await listen(app, cfg.host, cfg.port, `monolith-${cfg.replica}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
