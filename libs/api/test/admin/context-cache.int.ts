/**
 * cache: redis seen from the HTTP API: an exercise or statement updated or deleted, or a student
 * unenrolled, through the CRUD endpoints drops the cached submission contexts built from it, so
 * the next SPS read gets the new row (real PostgreSQL, real Redis, the Nest app the services
 * compose: the repositories' invalidating decorators bound by the wiring).
 */
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AuthModule } from '@shellgrade/auth';
import { CachedSubmissionContextReader, contextKey, exerciseIndexKey } from '@shellgrade/cache';
import { SUBMISSION_CONTEXT, type SubmissionContextReader } from '@shellgrade/domain';
import { configureHttpApp } from '@shellgrade/http';
import { createPool } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
// Tests take the servers' addresses and the spec's defaults from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections } from '@shellgrade/variant';
import { Redis } from 'ioredis';
import request from 'supertest';
import { LeftoverApiModule, StatementApiModule } from '../../src/admin/leftover-api.module';
import { testAuthConfig, testHttpOptions } from '../support/service-settings';
// The process's port table, as the services bind it: the write ports through the cache's invalidating decorators.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { databaseProviders, portsModule, redisSubmissionContextProviders } from '@shellgrade/wiring';

const catalog = [
  { slug: 'paper-scripts', name: 'Paper', statementHtml: '<p>paper</p>', questionArchive: Buffer.from([1, 2]), graderScript: 'old grader', locale: 'en', skills: [] },
];

/** A logical database of its own on the shared Redis: the module writes un-prefixed keys. */
const PRIVATE_DB = 14;
const redisUrl = () => {
  const url = new URL(loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL);
  url.pathname = `/${PRIVATE_DB}`;
  return url.toString();
};

async function dropCacheKeys(redis: Redis): Promise<void> {
  const keys = await redis.keys('sg:ctx:*');
  if (keys.length > 0) await redis.del(...keys);
}

describe('cache invalidation through the CRUD API (Nest app, real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let seeded: SeedResult;
  let raw: Redis;
  let reader: SubmissionContextReader;
  let teacher: ReturnType<typeof request.agent>;

  const cached = async (statementId: number) => (await raw.exists(contextKey(statementId))) === 1;

  beforeAll(async () => {
    db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 2, teachers: 1, catalog, kdfCost: 4 });
    await pool.end();
    raw = new Redis(redisUrl());
    await dropCacheKeys(raw);
    const database = databaseProviders({ url: db.url, poolSize: 5, idleTimeoutMs: 30_000 }, 'redis');
    const moduleRef = await Test.createTestingModule({
      imports: [
        portsModule([...database, ...redisSubmissionContextProviders({ url: redisUrl(), ttlSeconds: 300, commandTimeoutMs: 100 })]),
        AuthModule.forRoot(testAuthConfig()),
        LeftoverApiModule,
        StatementApiModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>();
    configureHttpApp(app as NestExpressApplication, testHttpOptions({ corsOrigins: '*' }));
    await app.init();
    reader = app.get<SubmissionContextReader>(SUBMISSION_CONTEXT);
    teacher = request.agent(app.getHttpServer());
    await teacher.post('/api/user/login').send({ email: 'teacher1@shellgrade.test', password: SEED_PASSWORDS.teacher }).expect(200);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    if (raw) await dropCacheKeys(raw);
    await raw?.quit();
    await db?.drop();
  });

  it('SPS read through the Redis cache in this wiring', () => {
    expect(reader).toBeInstanceOf(CachedSubmissionContextReader);
  });

  it('PATCH /api/exercise/:id drops the contexts of its statements: the next read has the new grader', async () => {
    const exerciseId = seeded.csvExerciseId;
    for (const s of seeded.students) await reader.load(s.userId, s.statementId, exerciseId);
    for (const s of seeded.students) expect(await cached(s.statementId)).toBe(true);

    await teacher.patch(`/api/exercise/${exerciseId}`).send({ grader_script: 'new grader' }).expect(200);
    for (const s of seeded.students) expect(await cached(s.statementId)).toBe(false);
    for (const s of seeded.students) expect((await reader.load(s.userId, s.statementId, exerciseId)).exercise.graderScript).toBe('new grader');
  });

  it('PUT /api/student-statement/:id drops that statement’s context: the next read has the new deadline', async () => {
    const [mine, other] = seeded.students;
    await reader.load(mine!.userId, mine!.statementId, seeded.csvExerciseId);
    await reader.load(other!.userId, other!.statementId, seeded.csvExerciseId);
    const deadline = '2031-01-15T08:00:00.000Z';

    await teacher.put(`/api/student-statement/${mine!.statementId}`).send({ deadline }).expect(200);
    expect(await cached(mine!.statementId)).toBe(false);
    expect(await cached(other!.statementId)).toBe(true);
    const after = await reader.load(mine!.userId, mine!.statementId, seeded.csvExerciseId);
    expect(after.statement.deadline).toEqual(new Date(deadline));
  });

  it('unenrolling a student drops its statement’s context: the next read says it is not enrolled; enrolling it again drops it too', async () => {
    const student = seeded.students[1]!;
    const path = `/api/business-session/${seeded.sessionId}/enrolments`;
    expect((await reader.load(student.userId, student.statementId, seeded.csvExerciseId)).enrolled).toBe(true);
    expect(await cached(student.statementId)).toBe(true);

    await teacher.delete(`${path}/${student.userId}`).expect(200);
    expect(await cached(student.statementId)).toBe(false);
    expect((await reader.load(student.userId, student.statementId, seeded.csvExerciseId)).enrolled).toBe(false);

    await teacher.post(path).send({ user_ids: [student.userId] }).expect(200);
    expect(await cached(student.statementId)).toBe(false);
    expect((await reader.load(student.userId, student.statementId, seeded.csvExerciseId)).enrolled).toBe(true);
  });

  it('DELETE of a statement and of its exercise: a cached context no longer answers', async () => {
    const student = seeded.students[0]!;
    const exercise = await teacher
      .post('/api/exercise')
      .send({ slug: 'short-lived', name: 'Short-lived', statement: '<p>s</p>', question_archive: Buffer.from([9]).toString('base64'), grader_script: 'g' })
      .expect(201);
    const exerciseId = exercise.body.ex_id as number;
    const statement = await teacher.post('/api/student-statement').send({ user_id: student.userId, session_id: seeded.sessionId, ex_id: exerciseId }).expect(201);
    const statementId = statement.body.ps_id as number;
    await reader.load(student.userId, statementId, exerciseId);
    expect(await cached(statementId)).toBe(true);

    await teacher.delete(`/api/student-statement/${statementId}`).expect(200);
    await expect(reader.load(student.userId, statementId, exerciseId)).rejects.toMatchObject({ kind: 'not-found' });
    expect(await raw.exists(exerciseIndexKey(exerciseId))).toBe(1);
    await teacher.delete(`/api/exercise/${exerciseId}`).expect(200);
    expect(await raw.exists(exerciseIndexKey(exerciseId))).toBe(0);
  });
});
