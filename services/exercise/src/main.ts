import { createHttpApp, listen } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf } from '@shellgrade/wiring';
import { ExerciseModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('exercise');
  const app = await createHttpApp(ExerciseModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade exercise service'));
  await listen(app, cfg.host, cfg.port, `exercise-${cfg.replica}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
