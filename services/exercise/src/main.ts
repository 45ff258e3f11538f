import { createHttpApp, listen } from '@shellgrade/http';
import { loadRuntimeConfig } from '@shellgrade/variant';
import { ExerciseModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadRuntimeConfig({ SG_ROLE: 'exercise', SG_PORT: '3300', SG_DISPATCH: 'http', ...process.env });
  const app = await createHttpApp(ExerciseModule.forRoot(cfg), {
    title: 'shellgrade exercise service',
    corsOrigins: cfg.SG_CORS_ORIGINS,
    bodyLimitBytes: cfg.SG_MAX_BODY_BYTES,
  });
  await listen(app, cfg.SG_HOST, cfg.SG_PORT, `exercise-${cfg.SG_REPLICA}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
