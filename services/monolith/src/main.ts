import { createHttpApp, listen } from '@shellgrade/http';
import { loadRuntimeConfig } from '@shellgrade/variant';
import { MonolithModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadRuntimeConfig();
  const app = await createHttpApp(MonolithModule.forRoot(cfg), {
    title: 'shellgrade monolith',
    corsOrigins: cfg.SG_CORS_ORIGINS,
    bodyLimitBytes: cfg.SG_MAX_BODY_BYTES,
  });
  await listen(app, cfg.SG_HOST, cfg.SG_PORT, `monolith-${cfg.SG_REPLICA}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
