/**
 * Database commands (npm run db -- <command>):
 *   migrate                                  apply pending migrations
 *   seed --students N [--teachers T] [--csv path] [--kdf-cost C]
 *                                            idempotent seed; CSV email,password,user_id,ex_id,ps_id
 *   reset                                    delete every production (and its inline archive)
 *   stats                                    row counts and storage sizes as JSON
 * DATABASE_URL (and SG_KDF_COST) come from the runtime config.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalog } from '@shellgrade/grading';
import { loadRuntimeConfig } from '@shellgrade/variant';
import { migrate } from './migrate';
import { createPool } from './pool';
import { PgProductionRepository } from './repositories/production.repository';
import { seed, seedCsv } from './seed';
import { databaseStats } from './stats';

const USAGE = 'usage: db migrate | seed --students N [--teachers T] [--csv path] [--kdf-cost C] | reset | stats';

async function main(argv: string[]): Promise<void> {
  const cfg = loadRuntimeConfig();
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      students: { type: 'string', default: '10' },
      teachers: { type: 'string', default: '2' },
      csv: { type: 'string' },
      'kdf-cost': { type: 'string' },
      exercise: { type: 'string', default: 'paper-scripts' },
    },
    strict: true,
  });

  if (command === 'migrate') {
    const ran = await migrate(cfg.DATABASE_URL);
    console.log(ran.length ? `applied: ${ran.join(', ')}` : 'schema up to date');
    return;
  }
  const pool = createPool({ databaseUrl: cfg.DATABASE_URL, size: 2 });
  try {
    if (command === 'seed') {
      const started = Date.now();
      const result = await seed(pool, {
        students: count(values.students, 'students'),
        teachers: count(values.teachers, 'teachers'),
        catalog: await loadCatalog(),
        kdfCost: values['kdf-cost'] ? count(values['kdf-cost'], 'kdf-cost') : cfg.SG_KDF_COST,
        csvExerciseSlug: values.exercise,
      });
      if (values.csv) {
        await mkdir(dirname(values.csv), { recursive: true });
        await writeFile(values.csv, seedCsv(result));
      }
      console.log(
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
      const deleted = await new PgProductionRepository(pool).deleteAll();
      console.log(`deleted ${deleted} productions`);
    } else if (command === 'stats') {
      console.log(JSON.stringify(await databaseStats(pool), null, 2));
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

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
