import { createHttpApp, listen } from '@shellgrade/http';
import { loadServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf, listenAddressOf, serveTransport } from '@shellgrade/wiring';
import { ExerciseModule } from './app.module';

async function main(): Promise<void> {
  const cfg = loadServiceConfig('exercise');
  const app = await createHttpApp(ExerciseModule.forRoot(cfg), httpOptionsOf(cfg, 'shellgrade exercise service'));
  await listen(app, listenAddressOf(cfg), `exercise-${cfg.replica}`);
  await serveTransport(app, cfg, `exercise-${cfg.replica}`); // spec.transport grpc: the gRPC edge beside it
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
