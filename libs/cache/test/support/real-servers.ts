/**
 * The real servers the integration tests use: a fresh seeded PostgreSQL database per file
 * (libs/persistence's helpers) and the shared Redis, with a private key prefix per test file
 * so running variants and other suites never see these keys.
 */
import { randomBytes } from 'node:crypto';
import type { SubmissionContext, SubmissionContextReader } from '@shellgrade/domain';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { type CatalogExercise, seed, type SeedResult } from '@shellgrade/admin-cli/seed';
// Tests take the servers' addresses and the spec's defaults from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections } from '@shellgrade/variant';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { CacheRedisConnection, type CacheRedisSettings } from '../../src/redis-connection';

/** The command timeout these tests run the cache with (the spec's default, cacheCommandTimeoutMs). */
export const COMMAND_TIMEOUT_MS = 100;

export const REDIS_URL = loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL;

export const testCatalog: CatalogExercise[] = [
  {
    slug: 'paper-scripts',
    name: 'Scripts of the paper',
    statementHtml: '<p>Write hello.sh</p>',
    questionArchive: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0xff, 1, 2, 3]),
    graderScript: 'print("{\\"grade\\": 100, \\"comment\\": []}")',
    locale: 'en',
    skills: ['scripts', 'permissions'],
  },
  {
    slug: 'file-permissions',
    name: 'File permissions',
    statementHtml: '<p>chmod</p>',
    questionArchive: Buffer.from([0x1f, 0x8b, 8, 0, 4, 5, 6]),
    graderScript: 'print("{}")',
    locale: 'fr',
    skills: ['permissions'],
  },
];

export interface SeededDatabase {
  db: TestDatabase;
  pool: Pool;
  seeded: SeedResult;
  /** The id of the statement a user has for an exercise. */
  statementOf(userId: number, exerciseId: number): Promise<number>;
  close(): Promise<void>;
}

export async function seededDatabase(students = 2): Promise<SeededDatabase> {
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
  const seeded = await seed(pool, { students, teachers: 1, catalog: testCatalog, kdfCost: 4 });
  return {
    db,
    pool,
    seeded,
    statementOf: async (userId, exerciseId) => {
      const { rows } = await pool.query<{ id: number }>('SELECT id FROM student_statements WHERE user_id = $1 AND exercise_id = $2', [userId, exerciseId]);
      return rows[0]!.id;
    },
    close: async () => {
      await pool.end();
      await db.drop();
    },
  };
}

export interface PrivateRedis {
  connection: CacheRedisConnection;
  /** Reads keys as the cache stored them (prefix included), bypassing the cache. */
  raw: Redis;
  prefix: string;
  close(): Promise<void>;
}

/** A cache connection whose keys live under a prefix of their own; close() deletes them. */
export async function privateRedis(settings: Partial<CacheRedisSettings> = {}): Promise<PrivateRedis> {
  const prefix = `sg-test-${randomBytes(4).toString('hex')}:`;
  const connection = new CacheRedisConnection({ url: REDIS_URL, keyPrefix: prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS, ...settings });
  if (!(await connection.whenReady(5_000))) throw new Error(`redis ${REDIS_URL} not reachable: bash infra/bin/servers up redis`);
  const raw = new Redis(REDIS_URL);
  return {
    connection,
    raw,
    prefix,
    close: async () => {
      const keys = await raw.keys(`${prefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      await connection.close();
      await raw.quit();
    },
  };
}

/** The real reader with its reads counted (not a mock: every call goes to PostgreSQL). */
export class CountedReader implements SubmissionContextReader {
  calls = 0;
  constructor(private readonly inner: SubmissionContextReader) {}
  load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext> {
    this.calls++;
    return this.inner.load(userId, statementId, exerciseId);
  }
}
