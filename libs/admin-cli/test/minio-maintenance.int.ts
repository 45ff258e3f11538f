/** Reset (purge) and sweep against a real MinIO bucket of this file's own and a real database. */
import { listObjects, MinioArchiveStore } from '@shellgrade/storage';
import { runStorageCommand } from '../src/storage-commands';
import { ARCHIVE_NEVER_STORED, sweep } from '../src/sweep';
// The MinIO test bucket and seeded database of libs/storage's own tests.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { archiveBytes, createTestBucket, minioBase, seededDatabase, type SeededDb, type TestBucket } from '../../storage/test/minio-test-support';

describe('object-store maintenance: purge on reset, orphan sweep', () => {
  let seeded: SeededDb;
  let bucket: TestBucket;
  let store: MinioArchiveStore;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [seeded, bucket] = await Promise.all([seededDatabase(), createTestBucket()]);
    store = MinioArchiveStore.create(seeded.pool, bucket.settings);
    env = {
      DATABASE_URL: seeded.db.url,
      SG_STORAGE: 'minio',
      MINIO_ENDPOINT: minioBase.endpoint,
      MINIO_ACCESS_KEY: minioBase.accessKey,
      MINIO_SECRET_KEY: minioBase.secretKey,
      MINIO_BUCKET: bucket.settings.bucket,
    };
  }, 60_000);

  afterAll(async () => {
    await bucket?.drop();
    await seeded?.close();
  });

  const keys = async () => (await listObjects(bucket.client, bucket.settings.bucket)).map((o) => o.key).sort();
  const putObject = (key: string) => bucket.client.putObject(bucket.settings.bucket, key, Buffer.from('x'), 1);
  // As the sweep sees it (the listing), not Last-Modified headers (whole seconds).
  const lastModified = async (key: string) => (await listObjects(bucket.client, bucket.settings.bucket)).find((o) => o.key === key)!.lastModified;

  it('purge (what `db reset` runs for minio) deletes every archive object, in batches', async () => {
    for (let i = 0; i < 3; i++) {
      const bytes = archiveBytes(`reset ${i}`);
      await store.put(await seeded.newProduction(bytes), bytes);
    }
    // More than one DeleteObjects batch (1,000 keys).
    const extra = Array.from({ length: 1_005 }, (_, i) => `productions/${500_000 + i}.tar.gz`);
    for (let i = 0; i < extra.length; i += 50) await Promise.all(extra.slice(i, i + 50).map(putObject));
    await putObject('elsewhere/keep.txt');
    expect((await keys()).length).toBe(1_008);

    await seeded.productions.deleteAll();
    const out: string[] = [];
    await runStorageCommand(['purge'], env, (line) => out.push(line));
    expect(out).toEqual([`deleted 1008 archive objects from bucket ${bucket.settings.bucket}`]);
    expect(await keys()).toEqual([]);
    // Only productions/ is purged.
    expect((await listObjects(bucket.client, bucket.settings.bucket, '')).map((o) => o.key)).toEqual(['elsewhere/keep.txt']);
  }, 120_000);

  it('sweep deletes an old orphan, spares a fresh one and objects that still have a row', async () => {
    const bytes = archiveBytes('kept');
    const liveId = await seeded.newProduction(bytes);
    await store.put(liveId, bytes);
    const oldOrphan = 'productions/900001.tar.gz';
    await putObject(oldOrphan);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const freshOrphan = 'productions/900002.tar.gz';
    await putObject(freshOrphan);
    // "now" just after the fresh orphan's write; only what is older than 1 s goes.
    const now = new Date((await lastModified(freshOrphan)).getTime() + 500);
    expect(now.getTime() - (await lastModified(oldOrphan)).getTime()).toBeGreaterThan(1_000);
    const report = await sweep({ pool: seeded.pool, objects: { client: bucket.client, bucket: bucket.settings.bucket }, olderThanS: 1, now });
    expect(report).toMatchObject({ orphanObjectsDeleted: 1, rowsFailed: 0 });
    const left = await keys();
    expect(left).not.toContain(oldOrphan);
    expect(left).toContain(freshOrphan);
    expect(left).toContain(`productions/${liveId}.tar.gz`);
    await expect(store.get(liveId)).resolves.toEqual(bytes);
  });

  it('sweep fails rows stuck in received without an archive and removes their partial object', async () => {
    const stuck = await seeded.newProduction(archiveBytes('crashed before put'));
    const recent = await seeded.newProduction(archiveBytes('in flight'));
    const inlineBytes = archiveBytes('postgres storage');
    const inline = await seeded.newProduction(inlineBytes);
    await seeded.pool.query('UPDATE exercise_productions SET archive = $2 WHERE id = $1', [inline, inlineBytes]);
    await seeded.pool.query("UPDATE exercise_productions SET created_at = now() - interval '1 hour' WHERE id = ANY($1)", [[stuck, inline]]);
    // The object was written but the process died before recording its key.
    await putObject(`productions/${stuck}.tar.gz`);

    const out: string[] = [];
    await runStorageCommand(['sweep', '--older-than-s', '600'], env, (line) => out.push(line));
    const report = JSON.parse(out[0]!);
    expect(report).toMatchObject({ rowsFailed: 1, olderThanS: 600, objectStore: bucket.settings.bucket });

    const { rows } = await seeded.pool.query('SELECT id, status, failure_reason FROM exercise_productions WHERE id = ANY($1) ORDER BY id', [[stuck, recent, inline]]);
    expect(rows).toEqual([
      { id: stuck, status: 'failed', failure_reason: ARCHIVE_NEVER_STORED },
      { id: recent, status: 'received', failure_reason: null },
      { id: inline, status: 'received', failure_reason: null },
    ]);
    expect(await keys()).not.toContain(`productions/${stuck}.tar.gz`);
  });

  it('rejects a bad --older-than-s and an unknown command', async () => {
    await expect(runStorageCommand(['sweep', '--older-than-s', '1.5'], env, () => undefined)).rejects.toThrow(/non-negative integer/);
    await expect(runStorageCommand(['nope'], env, () => undefined)).rejects.toThrow(/usage: storage/);
  });
});

describe('maintenance before the bucket exists', () => {
  it('purge and sweep find nothing instead of failing', async () => {
    const seeded = await seededDatabase();
    try {
      const env = {
        DATABASE_URL: seeded.db.url,
        SG_STORAGE: 'minio',
        MINIO_ENDPOINT: minioBase.endpoint,
        MINIO_ACCESS_KEY: minioBase.accessKey,
        MINIO_SECRET_KEY: minioBase.secretKey,
        MINIO_BUCKET: 'shellgrade-test-never-created',
      };
      const out: string[] = [];
      await runStorageCommand(['purge'], env, (line) => out.push(line));
      await runStorageCommand(['sweep'], env, (line) => out.push(line));
      expect(out[0]).toBe('deleted 0 archive objects from bucket shellgrade-test-never-created');
      expect(JSON.parse(out[1]!)).toMatchObject({ objectsScanned: 0, orphanObjectsDeleted: 0, rowsFailed: 0 });
    } finally {
      await seeded.close();
    }
  }, 60_000);
});
