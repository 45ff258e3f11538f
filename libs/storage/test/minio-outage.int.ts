/**
 * MinIO stopped mid-test (the shared server, through infra/bin/servers; restarted in afterAll
 * whatever happens): the store fails fast with 'unavailable' and an SPS submission leaves no row.
 */
import { DomainError, type GradingDispatch, SubmissionService } from '@shellgrade/domain';
import { validateArchive } from '@shellgrade/grading';
// The spec's archive bounds (their one default).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { archiveBoundsOf, graderSchema, httpSchema } from '@shellgrade/variant';
import { PgSubmissionContextReader } from '@shellgrade/persistence';
import { MinioArchiveStore } from '../src/minio-archive-store';
import { archiveBytes, createTestBucket, failure, seededDatabase, servers, tarGz, type SeededDb, type TestBucket } from './minio-test-support';

describe('MinIO stopped mid-test', () => {
  let seeded: SeededDb;
  let bucket: TestBucket;
  let store: MinioArchiveStore;
  let storedId: number;
  let stored: Buffer;
  let stopped = false;

  beforeAll(async () => {
    [seeded, bucket] = await Promise.all([seededDatabase(), createTestBucket()]);
    store = MinioArchiveStore.create(seeded.pool, { ...bucket.settings, requestTimeoutMs: 1_000 });
    stored = archiveBytes('before the outage');
    storedId = await seeded.newProduction(stored);
    await store.put(storedId, stored);
    servers('down', 'minio');
    stopped = true;
  }, 240_000);

  afterAll(async () => {
    // Other suites use the shared MinIO: always bring it back.
    if (stopped) servers('up', 'minio');
    await bucket?.drop();
    await seeded?.close();
  }, 240_000);

  it('put and get fail fast with unavailable and a Retry-After', async () => {
    const bytes = archiveBytes('during the outage');
    const id = await seeded.newProduction(bytes);
    // MinIO is stopped for the whole test: answers at all (not hangs) are the point.
    const putErr = (await failure(store.put(id, bytes))) as DomainError;
    const getErr = (await failure(store.get(storedId))) as DomainError;
    for (const err of [putErr, getErr]) {
      expect(err).toBeInstanceOf(DomainError);
      expect(err.kind).toBe('unavailable');
      expect(err.message).toMatch(/object store unreachable/);
      expect(err.retryAfterSeconds).toBe(5);
    }
    // The put left the row keyless: nothing points at an object that does not exist.
    const { rows } = await seeded.pool.query('SELECT archive_key FROM exercise_productions WHERE id = $1', [id]);
    expect(rows).toEqual([{ archive_key: null }]);
  });

  it('an SPS submission answers unavailable (503) and leaves no production row', async () => {
    const dispatched: number[] = [];
    const dispatch: GradingDispatch = {
      dispatch: async (req) => {
        dispatched.push(req.productionId);
        throw new Error('dispatch must not run when the archive was not stored');
      },
    };
    const sps = new SubmissionService(
      new PgSubmissionContextReader(seeded.pool),
      { validate: (bytes) => validateArchive(bytes, archiveBoundsOf({ http: httpSchema.parse({}), grader: graderSchema.parse({}) })).then(() => undefined) },
      seeded.productions,
      store,
      dispatch,
    );
    const before = await countProductions();
    const err = (await failure(
      sps.submit({
        userId: seeded.student.userId,
        exerciseId: seeded.exerciseId,
        statementId: seeded.student.statementId,
        archive: await tarGz('answer.txt', 'ls -l\n'),
        submissionKey: 'outage-1',
      }),
    )) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/object store unreachable.*the archive was not stored/);
    expect(err.retryAfterSeconds).toBe(5);
    expect(dispatched).toEqual([]);
    expect(await countProductions()).toBe(before);
    const { rows } = await seeded.pool.query("SELECT count(*)::int AS n FROM exercise_productions WHERE submission_key = 'outage-1'");
    expect(rows[0].n).toBe(0);
  });

  it('serves again once MinIO is back', async () => {
    servers('up', 'minio');
    stopped = false;
    await expect(store.get(storedId)).resolves.toEqual(stored);
    const bytes = archiveBytes('after the outage');
    const id = await seeded.newProduction(bytes);
    await store.put(id, bytes);
    await expect(store.get(id)).resolves.toEqual(bytes);
  }, 240_000);

  async function countProductions(): Promise<number> {
    const { rows } = await seeded.pool.query('SELECT count(*)::int AS n FROM exercise_productions');
    return rows[0].n;
  }
});
