/**
 * Storage micro-benchmark: for postgres bytea and MinIO, put/get latency of
 * a small archive through the ArchiveStore adapters, and how much exercise_productions grows
 * per 1,000 submissions (pg_total_relation_size before/after, raw and after VACUUM FULL).
 * Runs on private databases and a private bucket (dropped at the end), so a running variant
 * and its data are not touched. Bounded: --count productions per storage (default 1,000).
 *
 *   npm run bench -- storage-growth [--count 1000] [--archive-bytes 1024] [--out results/storage]
 * (its flags: command.ts). Brings PostgreSQL and MinIO up (infra/bin/servers up postgres minio); reads
 * DATABASE_URL and MINIO_* like the services. Writes <out>/<stamp>-<size>B.json and latest[-<size>B].{json,md}.
 * It lives here, not in libs/admin-cli: admin-cli administers, benchmarks measure.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ArchiveStore } from '@shellgrade/domain';
import { PgProductionRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { createReceivedProduction, seed } from '@shellgrade/admin-cli/seed';
import { mean, quantile } from 'simple-statistics';
import type { Pool } from 'pg';
import { createMinioClient, listObjects, MinioArchiveStore, PostgresArchiveStore, removeObjectsInBatches } from '@shellgrade/storage';
import { createPool } from '@shellgrade/persistence';
import { databaseSchema, loadConnections } from '@shellgrade/variant';
import { minioSettingsFrom } from '@shellgrade/admin-cli';

type StorageName = 'postgres' | 'minio';

export interface LatencySummary {
  samples: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface TableSizes {
  /** pg_total_relation_size: heap + TOAST + indexes. */
  totalBytes: number;
  heapBytes: number;
  toastBytes: number;
  indexBytes: number;
}

export interface StorageRow {
  storage: StorageName;
  put: LatencySummary;
  get: LatencySummary;
  before: TableSizes;
  after: TableSizes;
  /** After VACUUM FULL: the live data only (dead row versions of create-then-put removed). */
  compacted: TableSizes;
  growthPer1000Bytes: number;
  compactedGrowthPer1000Bytes: number;
  /** Sum of the objects' sizes in the bucket (minio only). */
  objectBytes: number | null;
  /** MinIO's files for the bucket under its data dir, when that dir is local (minio only). */
  objectDiskBytes: number | null;
}

export interface StorageBenchReport {
  createdAt: string;
  count: number;
  archiveBytes: number;
  machine: { cpus: number; node: string; loadAvg1: number };
  rows: StorageRow[];
  /** minio / postgres, same run. */
  ratios: { putP50: number; getP50: number; growthPer1000: number };
}

const summarize = (ms: number[]): LatencySummary => ({
  samples: ms.length,
  meanMs: round(mean(ms)),
  p50Ms: round(quantile(ms, 0.5)),
  p95Ms: round(quantile(ms, 0.95)),
  p99Ms: round(quantile(ms, 0.99)),
});
const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** A small pool of its own, the spec's idle timeout (as the admin tools' pools). */
const benchPool = (databaseUrl: string): Pool => createPool({ databaseUrl, size: 2, idleTimeoutMs: databaseSchema.parse({}).idleTimeoutMs });

async function tableSizes(pool: Pool): Promise<TableSizes> {
  const { rows } = await pool.query<Record<keyof TableSizes, string>>(
    `SELECT pg_total_relation_size(c.oid) AS "totalBytes", pg_relation_size(c.oid) AS "heapBytes",
            COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0) AS "toastBytes",
            pg_indexes_size(c.oid) AS "indexBytes"
       FROM pg_class c WHERE c.oid = 'exercise_productions'::regclass`,
  );
  const r = rows[0]!;
  return { totalBytes: Number(r.totalBytes), heapBytes: Number(r.heapBytes), toastBytes: Number(r.toastBytes), indexBytes: Number(r.indexBytes) };
}

interface Lane {
  storage: StorageName;
  db: TestDatabase;
  pool: Pool;
  store: ArchiveStore;
  newProduction(bytes: Buffer): Promise<number>;
  ids: number[];
  putMs: number[];
  getMs: number[];
  before?: TableSizes;
}

async function openLane(storage: StorageName, makeStore: (pool: Pool) => ArchiveStore): Promise<Lane> {
  const db = await createTestDatabase();
  const pool = benchPool(db.url);
  const catalog = [{ slug: 'paper-scripts', name: 'bench', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: '', locale: 'en', skills: [] }];
  const seeded = await seed(pool, { students: 1, teachers: 0, catalog, kdfCost: 4 });
  const student = seeded.students[0]!;
  const productions = new PgProductionRepository(pool);
  return {
    storage,
    db,
    pool,
    store: makeStore(pool),
    ids: [],
    putMs: [],
    getMs: [],
    newProduction: (bytes) => createReceivedProduction(productions, student, seeded.csvExerciseId, bytes),
  };
}

async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await diskBytes(path) : (await stat(path)).size;
  }
  return total;
}

export async function runStorageBench(opts: { count: number; archiveBytes: number; env?: NodeJS.ProcessEnv }): Promise<StorageBenchReport> {
  const cfg = loadConnections(opts.env ?? process.env);
  const settings = { ...minioSettingsFrom(cfg), bucket: `shellgrade-bench-${randomBytes(4).toString('hex')}` };
  const client = createMinioClient(settings);
  const lanes: Lane[] = [];
  try {
    lanes.push(await openLane('postgres', (pool) => new PostgresArchiveStore(pool)));
    lanes.push(
      await openLane('minio', (pool) => MinioArchiveStore.create(pool, settings)),
    );
    await (lanes[1]!.store as MinioArchiveStore).ensureBucket();
    for (const lane of lanes) lane.before = await tableSizes(lane.pool);

    // Interleaved (alternating which storage goes first) so machine noise hits both alike.
    for (let i = 0; i < opts.count; i++) {
      const bytes = randomBytes(opts.archiveBytes); // gzip output is incompressible, like this
      for (const lane of i % 2 ? [...lanes].reverse() : lanes) {
        const id = await lane.newProduction(bytes);
        const t0 = performance.now();
        await lane.store.put(id, bytes);
        lane.putMs.push(performance.now() - t0);
        lane.ids.push(id);
      }
    }
    for (let i = 0; i < opts.count; i++) {
      for (const lane of i % 2 ? [...lanes].reverse() : lanes) {
        const t0 = performance.now();
        await lane.store.get(lane.ids[i]!);
        lane.getMs.push(performance.now() - t0);
      }
    }

    const rows: StorageRow[] = [];
    for (const lane of lanes) {
      const after = await tableSizes(lane.pool);
      await lane.pool.query('VACUUM (FULL, ANALYZE) exercise_productions');
      const compacted = await tableSizes(lane.pool);
      const isMinio = lane.storage === 'minio';
      const objects = isMinio ? await listObjects(client, settings.bucket) : [];
      const dataDir = resolve(process.env.SG_RUN_DIR ?? 'run', 'minio', 'data', settings.bucket);
      const before = lane.before!;
      rows.push({
        storage: lane.storage,
        put: summarize(lane.putMs),
        get: summarize(lane.getMs),
        before,
        after,
        compacted,
        growthPer1000Bytes: Math.round(((after.totalBytes - before.totalBytes) * 1000) / opts.count),
        compactedGrowthPer1000Bytes: Math.round(((compacted.totalBytes - before.totalBytes) * 1000) / opts.count),
        objectBytes: isMinio ? objects.reduce((sum, o) => sum + o.size, 0) : null,
        objectDiskBytes: isMinio && existsSync(dataDir) ? await diskBytes(dataDir) : null,
      });
    }
    const [pg, minio] = rows as [StorageRow, StorageRow];
    return {
      createdAt: new Date().toISOString(),
      count: opts.count,
      archiveBytes: opts.archiveBytes,
      machine: { cpus: cpus().length, node: process.version, loadAvg1: round(loadavg()[0]!, 2) },
      rows,
      ratios: {
        putP50: round(minio.put.p50Ms / pg.put.p50Ms, 2),
        getP50: round(minio.get.p50Ms / pg.get.p50Ms, 2),
        growthPer1000: round(minio.growthPer1000Bytes / pg.growthPer1000Bytes, 3),
      },
    };
  } finally {
    for (const lane of lanes) {
      await lane.pool.end().catch(() => undefined);
      await lane.db.drop().catch(() => undefined);
    }
    const keys = (await listObjects(client, settings.bucket, '').catch(() => [])).map((o) => o.key);
    await removeObjectsInBatches(client, settings.bucket, keys).catch(() => undefined);
    await client.removeBucket(settings.bucket).catch(() => undefined);
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function storageBenchMarkdown(r: StorageBenchReport): string {
  const lines = [
    `# Archive storage: postgres bytea vs MinIO (${r.count} submissions of ${r.archiveBytes} B, ${r.createdAt})`,
    '',
    `Machine: ${r.machine.cpus} CPUs, node ${r.machine.node}, load ${r.machine.loadAvg1}. One client, sequential calls, interleaved storages.`,
    '',
    '| storage | put p50 / p95 ms | get p50 / p95 ms | table growth per 1,000 | after VACUUM FULL | objects (sum) | MinIO disk |',
    '|---|---|---|---|---|---|---|',
    ...r.rows.map(
      (row) =>
        `| ${row.storage} | ${row.put.p50Ms} / ${row.put.p95Ms} | ${row.get.p50Ms} / ${row.get.p95Ms} | ${kib(row.growthPer1000Bytes)} | ${kib(row.compactedGrowthPer1000Bytes)} | ${row.objectBytes === null ? '—' : kib(row.objectBytes)} | ${row.objectDiskBytes === null ? '—' : kib(row.objectDiskBytes)} |`,
    ),
    '',
    `minio / postgres: put p50 ×${r.ratios.putP50}, get p50 ×${r.ratios.getP50}, database growth ×${r.ratios.growthPer1000}.`,
    '',
    'Growth = pg_total_relation_size(exercise_productions) after − before, scaled to 1,000 productions',
    '(each created as SubmissionService does: insert the row, then put the archive). The raw figure',
    'includes the dead row versions the put UPDATE leaves until autovacuum; VACUUM FULL shows live data.',
    '',
  ];
  return lines.join('\n');
}

export const STORAGE_BENCH_LIMITS = { count: [10, 20_000], archiveBytes: [1, 1024 * 1024] } as const;

/** Runs the bench and writes <out>/<stamp>-<size>B.json and latest[-<size>B].{json,md}; returns the Markdown. */
export async function runStorageBenchToFiles(opts: { count: number; archiveBytes: number; out: string }): Promise<string> {
  const report = await runStorageBench({ count: opts.count, archiveBytes: opts.archiveBytes });
  await mkdir(opts.out, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  const stamp = report.createdAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  await writeFile(join(opts.out, `${stamp}-${opts.archiveBytes}B.json`), json);
  // latest-<size>B.* per archive size (the bench report reads the 1024 B one), latest.* for the last run.
  for (const name of ['latest', `latest-${opts.archiveBytes}B`]) {
    await writeFile(join(opts.out, `${name}.json`), json);
    await writeFile(join(opts.out, `${name}.md`), storageBenchMarkdown(report));
  }
  return storageBenchMarkdown(report);
}
