/**
 * Object-store maintenance behind `npm run db -- sweep|reset`:
 *   sweep [--older-than-s N] [--objects]   orphan objects and never-stored rows (see sweep.ts)
 *   purge                                  delete every object under productions/
 * The object store is included when SG_STORAGE=minio, when --objects is given, or (sweep)
 * when some production row names an object key.
 */
import { parseArgs } from 'node:util';
import { createMinioClient, purgeProductionObjects, type MinioSettings } from '@shellgrade/storage';
import { DEFAULT_SWEEP_AGE_S, sweep } from './sweep';
import { loadToolEnv, toolPool, type ToolEnv } from './tool-env';

export const STORAGE_USAGE = 'usage: storage sweep [--older-than-s N] [--objects] | purge';

export function minioSettingsFrom(cfg: Pick<ToolEnv, 'MINIO_ENDPOINT' | 'MINIO_ACCESS_KEY' | 'MINIO_SECRET_KEY' | 'MINIO_BUCKET'>): MinioSettings {
  return { endpoint: cfg.MINIO_ENDPOINT, accessKey: cfg.MINIO_ACCESS_KEY, secretKey: cfg.MINIO_SECRET_KEY, bucket: cfg.MINIO_BUCKET };
}

export async function runStorageCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<void> {
  const cfg = loadToolEnv(env);
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { 'older-than-s': { type: 'string' }, objects: { type: 'boolean', default: false } },
    strict: true,
  });
  const settings = minioSettingsFrom(cfg);

  if (command === 'purge') {
    const deleted = await purgeProductionObjects(createMinioClient(settings), settings.bucket);
    print(`deleted ${deleted} archive objects from bucket ${settings.bucket}`);
    return;
  }
  if (command !== 'sweep') throw new Error(STORAGE_USAGE);

  const olderThanS = values['older-than-s'] === undefined ? DEFAULT_SWEEP_AGE_S : Number(values['older-than-s']);
  if (!Number.isInteger(olderThanS) || olderThanS < 0) {
    throw new Error(`--older-than-s must be a non-negative integer, got ${values['older-than-s']}`);
  }
  const pool = toolPool(cfg.DATABASE_URL, 2);
  try {
    const withObjects = cfg.SG_STORAGE === 'minio' || values.objects || (await hasObjectKeys(pool));
    const objects = withObjects ? { client: createMinioClient(settings), bucket: settings.bucket } : undefined;
    print(JSON.stringify({ ...(await sweep({ pool, objects, olderThanS })), objectStore: withObjects ? settings.bucket : null }));
  } finally {
    await pool.end();
  }
}

async function hasObjectKeys(pool: ReturnType<typeof toolPool>): Promise<boolean> {
  const { rows } = await pool.query<{ keyed: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM exercise_productions WHERE archive_key IS NOT NULL) AS keyed',
  );
  return rows[0]?.keyed === true;
}
