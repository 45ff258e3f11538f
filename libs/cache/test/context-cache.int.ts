/**
 * The cached reader against the real Redis and a real seeded PostgreSQL: fill, hit, invalidation
 * after writes through the repositories the API's controllers use, TTL, and the guard that keeps
 * a read racing an update from storing the old row.
 */
import { PgExerciseRepository, PgStatementRepository, PgSubmissionContextReader } from '@shellgrade/persistence';
import { contextKey, exerciseIndexKey } from '../src/cache-keys';
import { CachedSubmissionContextReader } from '../src/cached-submission-context.reader';
import type { CacheResult } from '../src/context-cache';
import { encodeContextEntry } from '../src/context-entry';
import { RedisSubmissionContextCache } from '../src/redis-context-cache';
import { CountedReader, privateRedis, type PrivateRedis, seededDatabase, type SeededDatabase } from './support/real-servers';

const TTL_S = 120;

describe('CachedSubmissionContextReader (real Redis + PostgreSQL)', () => {
  let database: SeededDatabase;
  let redis: PrivateRedis;
  let postgres: CountedReader;
  let cache: RedisSubmissionContextCache;
  let reader: CachedSubmissionContextReader;
  let results: CacheResult[];
  let exercises: PgExerciseRepository;
  let statements: PgStatementRepository;

  beforeAll(async () => {
    database = await seededDatabase(2);
    redis = await privateRedis();
    exercises = new PgExerciseRepository(database.pool);
    statements = new PgStatementRepository(database.pool);
  }, 60_000);

  beforeEach(() => {
    results = [];
    postgres = new CountedReader(new PgSubmissionContextReader(database.pool));
    cache = new RedisSubmissionContextCache(redis.connection.client, { ttlSeconds: TTL_S });
    reader = new CachedSubmissionContextReader(postgres, cache, { request: (r) => results.push(r), failed: () => undefined, invalidated: () => undefined });
  });

  afterAll(async () => {
    await redis?.close();
    await database?.close();
  });

  const student = (i: number) => database.seeded.students[i]!;
  const paperExercise = () => database.seeded.exerciseIds['paper-scripts']!;
  const otherExercise = () => database.seeded.exerciseIds['file-permissions']!;

  it('misses and fills on the first load, hits on the second with exactly the PostgreSQL value', async () => {
    const { userId, statementId } = student(0);
    const first = await reader.load(userId, statementId, paperExercise());
    expect(await redis.raw.exists(`${redis.prefix}${contextKey(statementId)}`)).toBe(1);
    const second = await reader.load(userId, statementId, paperExercise());
    expect(results).toEqual(['miss', 'hit']);
    expect(postgres.calls).toBe(1);
    const direct = await new PgSubmissionContextReader(database.pool).load(userId, statementId, paperExercise());
    expect(second).toEqual(direct);
    expect(first).toEqual(direct);
    expect(second.statement.questionArchive.equals(direct.statement.questionArchive)).toBe(true);
    expect(second.exercise.questionArchive.equals(direct.exercise.questionArchive)).toBe(true);
    expect(second.statement.deadline!.getTime()).toBe(direct.statement.deadline!.getTime());
  });

  it('serves the cached value while PostgreSQL changes behind its back, the new one once the exercise update is announced', async () => {
    const { userId, statementId } = student(1);
    const before = await reader.load(userId, statementId, paperExercise());
    // Behind the cache's back: nothing is announced, the entry keeps answering.
    await database.pool.query(`UPDATE exercises SET grader_script = 'print("changed in sql")' WHERE id = $1`, [paperExercise()]);
    expect((await reader.load(userId, statementId, paperExercise())).exercise.graderScript).toBe(before.exercise.graderScript);

    // What ExercisesController.update does: the repository write, then the invalidation.
    await exercises.update(paperExercise(), { graderScript: 'print("changed through the API")' });
    await cache.exerciseChanged(paperExercise());
    expect((await reader.load(userId, statementId, paperExercise())).exercise.graderScript).toBe('print("changed through the API")');
    expect(results).toEqual(['miss', 'hit', 'miss']);
  });

  it('an exercise change drops the context of every statement of that exercise and no other', async () => {
    const paper = [student(0), student(1)];
    const otherStatement = await database.statementOf(student(0).userId, otherExercise());
    for (const s of paper) await reader.load(s.userId, s.statementId, paperExercise());
    await reader.load(student(0).userId, otherStatement, otherExercise());
    expect(await redis.raw.smembers(`${redis.prefix}${exerciseIndexKey(paperExercise())}`)).toEqual(
      expect.arrayContaining(paper.map((s) => String(s.statementId))),
    );

    await cache.exerciseChanged(paperExercise());
    for (const s of paper) expect(await redis.raw.exists(`${redis.prefix}${contextKey(s.statementId)}`)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}${exerciseIndexKey(paperExercise())}`)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}${contextKey(otherStatement)}`)).toBe(1);
  });

  it('a statement update, announced as StatementsController does, shows the new deadline on the next load', async () => {
    const { userId, statementId } = student(0);
    await reader.load(userId, statementId, paperExercise());
    const deadline = new Date('2031-06-30T12:00:00.000Z');
    await statements.update(statementId, { deadline, statementHtml: '<p>personalised</p>' });
    // Still the old row until announced (proves the next assertion is about the invalidation).
    expect((await reader.load(userId, statementId, paperExercise())).statement.statementHtml).not.toBe('<p>personalised</p>');
    await cache.statementChanged(statementId);
    const after = await reader.load(userId, statementId, paperExercise());
    expect(after.statement.deadline).toEqual(deadline);
    expect(after.statement.statementHtml).toBe('<p>personalised</p>');
  });

  it('answers not-found to another user or exercise even when the statement is cached', async () => {
    const { userId, statementId } = student(0);
    await reader.load(userId, statementId, paperExercise());
    await expect(reader.load(student(1).userId, statementId, paperExercise())).rejects.toMatchObject({ kind: 'not-found' });
    await expect(reader.load(userId, statementId, otherExercise())).rejects.toMatchObject({ kind: 'not-found' });
    expect(await reader.load(userId, statementId, paperExercise())).toMatchObject({ statement: { id: statementId, userId } });
  });

  it('sets the TTL on the entry and on the exercise index', async () => {
    const { userId, statementId } = student(1);
    await cache.statementChanged(statementId);
    await reader.load(userId, statementId, paperExercise());
    const entryTtl = await redis.raw.ttl(`${redis.prefix}${contextKey(statementId)}`);
    const indexTtl = await redis.raw.ttl(`${redis.prefix}${exerciseIndexKey(paperExercise())}`);
    expect(entryTtl).toBeGreaterThan(TTL_S - 10);
    expect(entryTtl).toBeLessThanOrEqual(TTL_S);
    expect(indexTtl).toBeGreaterThan(TTL_S - 10);
    expect(indexTtl).toBeLessThanOrEqual(TTL_S);
  });

  it('refuses a fill whose lookup came before an invalidation (a read that raced an update)', async () => {
    const { userId, statementId } = student(0);
    const stale = await new PgSubmissionContextReader(database.pool).load(userId, statementId, paperExercise());
    await cache.statementChanged(statementId);

    const beforeExerciseChange = await cache.lookup(statementId, paperExercise());
    await cache.exerciseChanged(paperExercise());
    expect(await cache.fill(statementId, paperExercise(), encodeContextEntry(stale), beforeExerciseChange.guard)).toBe(false);

    const beforeStatementChange = await cache.lookup(statementId, paperExercise());
    await cache.statementChanged(statementId);
    expect(await cache.fill(statementId, paperExercise(), encodeContextEntry(stale), beforeStatementChange.guard)).toBe(false);
    expect(await redis.raw.exists(`${redis.prefix}${contextKey(statementId)}`)).toBe(0);

    const current = await cache.lookup(statementId, paperExercise());
    expect(await cache.fill(statementId, paperExercise(), encodeContextEntry(stale), current.guard)).toBe(true);
  });
});
