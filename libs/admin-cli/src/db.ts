/**
 * Database commands (npm run db -- <command>):
 *   migrate                                  apply pending migrations
 *   seed --students N [--teachers T] [--csv path] [--kdf-cost C]
 *                                            idempotent seed; CSV email,password,user_id,ex_id,ps_id
 *   reset [--vacuum-full]                    delete every production (and its inline archive) and
 *                                            ended login sessions;
 *                                            --vacuum-full also gives the space back to the OS
 *                                            (exclusive lock: only between benchmark runs)
 *                                            [--objects] (implied by SG_STORAGE=minio) also purges
 *                                            the archives in the object store
 *   stats                                    row counts and storage sizes as JSON
 *   sweep [--older-than-s N] [--objects]     orphan objects / never-stored rows (storage-commands.ts)
 * DATABASE_URL, MINIO_* (and SG_STORAGE) come from the environment (see tool-env.ts);
 * seed hashes with the spec's default auth.kdfCost unless --kdf-cost says otherwise.
 */
import { runDbCommand } from './db-commands';

runDbCommand(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
