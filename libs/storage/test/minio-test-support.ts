/** Shared helpers of the MinIO integration tests: a private bucket per file, seeded productions. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { createPool, PgProductionRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { createReceivedProduction, seed } from '@shellgrade/admin-cli/seed';
import type { Client } from 'minio';
import type { Pool } from 'pg';
import { createMinioClient, type MinioSettings } from '../src/minio-client';
import { listObjects, removeObjectsInBatches } from '../src/object-purge';

const REPO = join(__dirname, '..', '..', '..');

export const minioBase = {
  endpoint: process.env.MINIO_ENDPOINT ?? 'http://127.0.0.1:59000',
  accessKey: process.env.MINIO_ACCESS_KEY ?? 'shellgrade',
  secretKey: process.env.MINIO_SECRET_KEY ?? 'shellgrade-secret',
};

export interface TestBucket {
  settings: MinioSettings;
  client: Client;
  drop(): Promise<void>;
}

/** A bucket of its own (the shared shellgrade-archives is left alone); drop() empties and removes it. */
export async function createTestBucket(): Promise<TestBucket> {
  const settings: MinioSettings = { ...minioBase, bucket: `shellgrade-test-${randomBytes(5).toString('hex')}` };
  const client = createMinioClient(settings);
  await client.makeBucket(settings.bucket, 'us-east-1');
  return {
    settings,
    client,
    drop: async () => {
      const keys = (await listObjects(client, settings.bucket, '')).map((o) => o.key);
      await removeObjectsInBatches(client, settings.bucket, keys);
      await client.removeBucket(settings.bucket);
    },
  };
}

export const catalog = [
  { slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: '', locale: 'en', skills: [] },
];

export interface SeededDb {
  db: TestDatabase;
  pool: Pool;
  productions: PgProductionRepository;
  student: { userId: number; statementId: number };
  exerciseId: number;
  newProduction(bytes: Buffer): Promise<number>;
  close(): Promise<void>;
}

/** A fresh migrated database with one student and a way to insert 'received' productions. */
export async function seededDatabase(): Promise<SeededDb> {
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
  const seeded = await seed(pool, { students: 1, teachers: 0, catalog, kdfCost: 4 });
  const student = seeded.students[0]!;
  const productions = new PgProductionRepository(pool);
  return {
    db,
    pool,
    productions,
    student,
    exerciseId: seeded.csvExerciseId,
    newProduction: (bytes) => createReceivedProduction(productions, student, seeded.csvExerciseId, bytes),
    close: async () => {
      await pool.end();
      await db.drop();
    },
  };
}

/** A small gzip payload (the store does not parse it; SPS validation is tested elsewhere). */
export const archiveBytes = (label: string): Buffer => gzipSync(Buffer.from(`archive ${label} ${randomBytes(4).toString('hex')}`));

/** infra/bin/servers <action> <name> (the shared servers' own script). */
export function servers(action: 'up' | 'down', name: string): void {
  execFileSync('bash', ['infra/bin/servers', action, name], { cwd: REPO, stdio: 'pipe', timeout: 180_000 });
}

export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** A real tar.gz holding one text file (what a student submits). */
export async function tarGz(name: string, content: string): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return gzipSync(Buffer.concat(chunks));
}
