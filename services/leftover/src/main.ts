import { createHttpApp, listen } from '@shellgrade/http';
import { loadRuntimeConfig } from '@shellgrade/variant';
import { LeftoverModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadRuntimeConfig({ SG_ROLE: 'leftover', SG_PORT: '3200', ...process.env });
  const app = await createHttpApp(LeftoverModule.forRoot(cfg), {
    title: 'shellgrade leftover service',
    corsOrigins: cfg.SG_CORS_ORIGINS,
    bodyLimitBytes: cfg.SG_MAX_BODY_BYTES,
  });
  await listen(app, cfg.SG_HOST, cfg.SG_PORT, `leftover-${cfg.SG_REPLICA}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
