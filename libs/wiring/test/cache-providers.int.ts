/**
 * The cache's bindings as the service roots make them (database + cache, cache.ts), against the
 * real PostgreSQL and Redis: which reader SUBMISSION_CONTEXT is, which invalidation the write
 * ports tell and that each write port is bound to its decorator once, that a service starts
 * when Redis is down, and that shutdown closes the connection.
 */
import type { INestApplicationContext, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  ENROLMENT_REPOSITORY,
  EXERCISE_REPOSITORY,
  noSubmissionContextCache,
  PRODUCTION_REPOSITORY,
  STATEMENT_REPOSITORY,
  SUBMISSION_CONTEXT,
  SUBMISSION_CONTEXT_INVALIDATION,
  type SubmissionContextInvalidation,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import {
  CACHE_REDIS,
  CachedSubmissionContextReader,
  contextKey,
  EnrolmentWritesInvalidation,
  ExerciseWritesInvalidation,
  ProductionWritesInvalidation,
  StatementWritesInvalidation,
  type CacheRedisConnection,
} from '@shellgrade/cache';
import { PgEnrolmentRepository, PgExerciseRepository, PgProductionRepository, PgStatementRepository, PgSubmissionContextReader } from '@shellgrade/persistence';
import { Redis } from 'ioredis';
import { createServer } from 'node:net';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, type SeedResult } from '@shellgrade/admin-cli/seed';
// Tests take the servers' addresses from the spec library, as the services do.
import { loadConnections } from '@shellgrade/variant';
import { type CacheKind, databaseProviders, directSubmissionContextProviders, redisSubmissionContextProviders } from '../src/cache';

/** The command timeout these tests run the cache with (the spec's default, cacheCommandTimeoutMs). */
const COMMAND_TIMEOUT_MS = 100;
const REDIS_URL = loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL;
const catalog = [{ slug: 'paper-scripts', name: 'Paper', statementHtml: '<p>paper</p>', questionArchive: Buffer.from([1, 2]), graderScript: 'g', locale: 'en', skills: [] }];

interface SeededDatabase {
  db: TestDatabase;
  seeded: SeedResult;
  close(): Promise<void>;
}

async function seededDatabase(students: number): Promise<SeededDatabase> {
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
  const seeded = await seed(pool, { students, teachers: 1, catalog, kdfCost: 4 });
  await pool.end();
  return { db, seeded, close: () => db.drop() };
}

/** A loopback port nothing listens on (Redis down). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The module uses REDIS_URL as configured (no key prefix), so this file keeps its keys in a
 * logical database of their own, away from BullMQ (db 0) and the variants' cache.
 */
const PRIVATE_DB = 13;
const privateDbUrl = () => {
  const url = new URL(REDIS_URL);
  url.pathname = `/${PRIVATE_DB}`;
  return url.toString();
};

async function dropCacheKeys(redis: Redis): Promise<void> {
  const keys = await redis.keys('sg:ctx:*');
  if (keys.length > 0) await redis.del(...keys);
}

describe('cache providers (real PostgreSQL and Redis)', () => {
  let database: SeededDatabase;
  let raw: Redis;
  const apps: INestApplicationContext[] = [];

  const compile = async (kind: CacheKind, cache: Provider[]) => {
    const moduleRef = await Test.createTestingModule({
      providers: [...databaseProviders({ url: database.db.url, poolSize: 2, idleTimeoutMs: 30_000 }, kind), ...cache],
    }).compile();
    const app = await moduleRef.init();
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    database = await seededDatabase(1);
    raw = new Redis(privateDbUrl());
    await dropCacheKeys(raw);
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    if (raw) await dropCacheKeys(raw);
    await raw?.quit();
    await database?.close();
  });

  it('cache none: SPS read PostgreSQL directly and invalidation does nothing', async () => {
    const app = await compile('none', directSubmissionContextProviders);
    expect(app.get(SUBMISSION_CONTEXT)).toBeInstanceOf(PgSubmissionContextReader);
    expect(app.get(SUBMISSION_CONTEXT_INVALIDATION)).toBe(noSubmissionContextCache);
    expect(() => app.get(CACHE_REDIS)).toThrow();
    expect(app.get(EXERCISE_REPOSITORY)).toBeInstanceOf(PgExerciseRepository);
    expect(app.get(STATEMENT_REPOSITORY)).toBeInstanceOf(PgStatementRepository);
    expect(app.get(ENROLMENT_REPOSITORY)).toBeInstanceOf(PgEnrolmentRepository);
    expect(app.get(PRODUCTION_REPOSITORY)).toBeInstanceOf(PgProductionRepository);
  });

  it('cache redis: every write port whose writes stale a cached read is its invalidating decorator', async () => {
    const app = await compile('redis', redisSubmissionContextProviders({ url: privateDbUrl(), ttlSeconds: 90, commandTimeoutMs: COMMAND_TIMEOUT_MS }));
    expect(app.get(EXERCISE_REPOSITORY)).toBeInstanceOf(ExerciseWritesInvalidation);
    expect(app.get(STATEMENT_REPOSITORY)).toBeInstanceOf(StatementWritesInvalidation);
    expect(app.get(ENROLMENT_REPOSITORY)).toBeInstanceOf(EnrolmentWritesInvalidation);
    expect(app.get(PRODUCTION_REPOSITORY)).toBeInstanceOf(ProductionWritesInvalidation);
  });

  it('cache redis: SPS read through the cache, the controllers invalidate it, shutdown closes the connection', async () => {
    const app = await compile('redis', redisSubmissionContextProviders({ url: privateDbUrl(), ttlSeconds: 90, commandTimeoutMs: COMMAND_TIMEOUT_MS }));
    const reader = app.get<SubmissionContextReader>(SUBMISSION_CONTEXT);
    expect(reader).toBeInstanceOf(CachedSubmissionContextReader);
    const { userId, statementId } = database.seeded.students[0]!;
    const exerciseId = database.seeded.csvExerciseId;

    const loaded = await reader.load(userId, statementId, exerciseId);
    expect(loaded).toEqual(await app.get(PgSubmissionContextReader).load(userId, statementId, exerciseId));
    expect(await raw.ttl(contextKey(statementId))).toBeGreaterThan(80);

    await app.get<SubmissionContextInvalidation>(SUBMISSION_CONTEXT_INVALIDATION).exerciseChanged(exerciseId);
    expect(await raw.exists(contextKey(statementId))).toBe(0);

    const connection = app.get<CacheRedisConnection>(CACHE_REDIS);
    await app.close();
    apps.splice(apps.indexOf(app), 1);
    expect(connection.client.status).toBe('end');
  });

  it('cache redis with Redis down: the service starts (it does not wait for Redis) and SPS still read PostgreSQL', async () => {
    // Redis never comes up here: a start that waited for it would never return.
    const app = await compile('redis', redisSubmissionContextProviders({ url: `redis://127.0.0.1:${await closedPort()}`, ttlSeconds: 300, commandTimeoutMs: COMMAND_TIMEOUT_MS }));
    const { userId, statementId } = database.seeded.students[0]!;
    const loaded = await app.get<SubmissionContextReader>(SUBMISSION_CONTEXT).load(userId, statementId, database.seeded.csvExerciseId);
    expect(loaded.statement.id).toBe(statementId);
  });
});
