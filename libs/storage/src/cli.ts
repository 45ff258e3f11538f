/** Entry of `node dist/libs/storage/src/cli.js <command>`; see storage-commands.ts. */
import { runStorageCommand } from './storage-commands';

runStorageCommand(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
