/** The db commands behind db.ts (importable, so tests run them in-process). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalog } from '@shellgrade/grading';
import { markProductionsChanged } from '@shellgrade/cache';
import { migrate, PgProductionRepository, PgRefreshTokenRepository } from '@shellgrade/persistence';
import { seed, seedCsv } from '@shellgrade/admin-cli/seed';
import { authSchema } from '@shellgrade/variant';
import { databaseStats } from './stats';
import { runStorageCommand } from './storage-commands';
import { loadToolEnv, toolPool } from './tool-env';

export const USAGE =
  'usage: db migrate | seed --students N [--teachers T] [--csv path] [--kdf-cost C] [--exercise slug] | reset [--vacuum-full] [--objects] | stats | sweep [--older-than-s N] [--objects]';

/** Runs one db command; `print` receives the human/JSON output (stdout for the CLI). */
export async function runDbCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<void> {
  const cfg = loadToolEnv(env);
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      students: { type: 'string', default: '10' },
      teachers: { type: 'string', default: '2' },
      csv: { type: 'string' },
      'kdf-cost': { type: 'string' },
      exercise: { type: 'string', default: 'paper-scripts' },
      'vacuum-full': { type: 'boolean', default: false },
      objects: { type: 'boolean', default: false },
      'older-than-s': { type: 'string' },
    },
    strict: true,
  });

  if (command === 'sweep') {
    const args = ['sweep', ...(values.objects ? ['--objects'] : []), ...(values['older-than-s'] ? ['--older-than-s', values['older-than-s']] : [])];
    await runStorageCommand(args, env, print);
    return;
  }
  if (command === 'migrate') {
    const ran = await migrate(cfg.DATABASE_URL);
    print(ran.length ? `applied: ${ran.join(', ')}` : 'schema up to date');
    return;
  }
  const pool = toolPool(cfg.DATABASE_URL, 2);
  try {
    if (command === 'seed') {
      const started = Date.now();
      const result = await seed(pool, {
        students: count(values.students, 'students'),
        teachers: count(values.teachers, 'teachers'),
        catalog: await loadCatalog(),
        kdfCost: values['kdf-cost'] ? count(values['kdf-cost'], 'kdf-cost') : authSchema.parse({}).kdfCost,
        csvExerciseSlug: values.exercise,
      });
      if (values.csv) {
        await mkdir(dirname(values.csv), { recursive: true });
        await writeFile(values.csv, seedCsv(result));
      }
      print(
        JSON.stringify({
          students: result.students.length,
          teachers: result.teacherIds.length,
          exercises: Object.keys(result.exerciseIds).length,
          statements: result.statements,
          sessionId: result.sessionId,
          csvExerciseId: result.csvExerciseId,
          csv: values.csv ?? null,
          ms: Date.now() - started,
        }),
      );
    } else if (command === 'reset') {
      // Archives kept in the object store go with their rows, whatever SG_STORAGE the caller has.
      const { rows: keyed } = await pool.query('SELECT 1 FROM exercise_productions WHERE archive_key IS NOT NULL LIMIT 1');
      const withObjects = cfg.SG_STORAGE === 'minio' || values.objects || keyed.length > 0;
      const deleted = await new PgProductionRepository(pool).deleteAll();
      // Reports cached in Redis (cache: redis) must not show the deleted productions; no Redis running: nothing cached.
      await markProductionsChanged({ url: cfg.REDIS_URL, timeoutMs: 2_000 }).catch(() => undefined);
      const sessions = await new PgRefreshTokenRepository(pool).purgeInactive();
      if (withObjects) await runStorageCommand(['purge'], env, print);
      if (values['vacuum-full']) await pool.query('VACUUM (FULL, ANALYZE) exercise_productions');
      const { productionsTotalBytes } = await databaseStats(pool);
      print(`deleted ${deleted} productions and ${sessions} ended sessions; exercise_productions now ${productionsTotalBytes} bytes`);
    } else if (command === 'stats') {
      print(JSON.stringify(await databaseStats(pool), null, 2));
    } else {
      throw new Error(USAGE);
    }
  } finally {
    await pool.end();
  }
}

function count(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${raw}`);
  return n;
}
