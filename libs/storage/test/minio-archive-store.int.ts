import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Test } from '@nestjs/testing';
import { ARCHIVE_STORE, type ArchiveStore, DomainError } from '@shellgrade/domain';
import { PG_POOL } from '@shellgrade/persistence';
import { MinioArchiveStore } from '../src/minio-archive-store';
import { sha256Hex } from '../src/postgres-archive-store';
import { minioArchiveStoreProvider, tracedArchiveStoreProviders } from '../src/storage.providers';
import { archiveBytes, createTestBucket, failure, minioBase, seededDatabase, type SeededDb, type TestBucket } from './minio-test-support';

describe('MinioArchiveStore (real MinIO + PostgreSQL)', () => {
  let seeded: SeededDb;
  let bucket: TestBucket;
  let store: MinioArchiveStore;

  beforeAll(async () => {
    [seeded, bucket] = await Promise.all([seededDatabase(), createTestBucket()]);
    store = MinioArchiveStore.create(seeded.pool, bucket.settings);
    await store.ensureBucket();
  }, 60_000);

  afterAll(async () => {
    await bucket?.drop();
    await seeded?.close();
  });

  it('round-trips an archive under productions/<id>.tar.gz and records the key', async () => {
    const bytes = archiveBytes('round-trip');
    const id = await seeded.newProduction(bytes);
    const { key, sha256 } = await store.put(id, bytes);
    expect(key).toBe(`productions/${id}.tar.gz`);
    expect(sha256).toBe(sha256Hex(bytes));
    const { rows } = await seeded.pool.query('SELECT archive, archive_key FROM exercise_productions WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ archive: null, archive_key: key });
    const stat = await bucket.client.statObject(bucket.settings.bucket, key);
    expect(stat.size).toBe(bytes.length);
    await expect(store.get(id)).resolves.toEqual(bytes);
  });

  it('detects an object replaced behind its back (same size, other bytes)', async () => {
    const bytes = archiveBytes('tamper');
    const id = await seeded.newProduction(bytes);
    const { key } = await store.put(id, bytes);
    const forged = Buffer.from(bytes);
    forged[forged.length - 1] ^= 0xff;
    await bucket.client.putObject(bucket.settings.bucket, key, forged, forged.length);
    const err = (await failure(store.get(id))) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.message).toMatch(`archive of production ${id} is corrupt (sha256 mismatch)`);
    expect(err.details).toMatchObject({ key, expected: sha256Hex(bytes), actual: sha256Hex(forged) });
  });

  it('rejects an object longer than the recorded size', async () => {
    const bytes = archiveBytes('grown');
    const id = await seeded.newProduction(bytes);
    const { key } = await store.put(id, bytes);
    const bigger = Buffer.alloc(256 * 1024, 7);
    await bucket.client.putObject(bucket.settings.bucket, key, bigger, bigger.length);
    const err = (await failure(store.get(id))) as DomainError;
    expect(err.message).toMatch(/corrupt \(size mismatch\)/);
    expect(err.details).toMatchObject({ expectedSize: bytes.length });
  });

  it('is not-found for a production whose object is missing, or that does not exist', async () => {
    const bytes = archiveBytes('missing');
    const id = await seeded.newProduction(bytes);
    expect(((await failure(store.get(id))) as DomainError).kind).toBe('not-found');
    expect(((await failure(store.get(987_654))) as DomainError).kind).toBe('not-found');
  });

  it('refuses to store for an unknown production and leaves no object behind', async () => {
    const err = (await failure(store.put(987_655, archiveBytes('ghost')))) as DomainError;
    expect(err.kind).toBe('not-found');
    await expect(bucket.client.statObject(bucket.settings.bucket, 'productions/987655.tar.gz')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('delete removes the object and the key, keeps the production', async () => {
    const bytes = archiveBytes('delete');
    const id = await seeded.newProduction(bytes);
    const { key } = await store.put(id, bytes);
    await store.delete(id);
    await expect(bucket.client.statObject(bucket.settings.bucket, key)).rejects.toMatchObject({ code: 'NotFound' });
    const { rows } = await seeded.pool.query('SELECT archive_key FROM exercise_productions WHERE id = $1', [id]);
    expect(rows).toEqual([{ archive_key: null }]);
  });

  it('ensures its bucket idempotently, and recreates it when it vanished', async () => {
    const fresh = { ...bucket.settings, bucket: `${bucket.settings.bucket}-b` };
    const other = MinioArchiveStore.create(seeded.pool, fresh);
    try {
      await other.ensureBucket();
      await other.ensureBucket();
      await expect(bucket.client.bucketExists(fresh.bucket)).resolves.toBe(true);
      await bucket.client.removeBucket(fresh.bucket); // e.g. the server's data dir was wiped
      const bytes = archiveBytes('recreate');
      const id = await seeded.newProduction(bytes);
      await other.put(id, bytes);
      await expect(other.get(id)).resolves.toEqual(bytes);
    } finally {
      await bucket.client.removeObjects(fresh.bucket, (await listKeys(fresh.bucket))).catch(() => undefined);
      await bucket.client.removeBucket(fresh.bucket).catch(() => undefined);
    }
  });

  describe('with an object store that does not answer', () => {
    let silent: Server;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      // Accepts connections and never replies: a hung server, not a refused connection.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    });

    it('fails put and get with unavailable after the request timeout, not a TCP timeout', async () => {
      const port = (silent.address() as AddressInfo).port;
      const hung = MinioArchiveStore.create(seeded.pool, {
        ...bucket.settings,
        endpoint: `http://127.0.0.1:${port}`,
        requestTimeoutMs: 500,
      });
      const bytes = archiveBytes('hung');
      const id = await seeded.newProduction(bytes);
      // The server never answers: an error at all proves the idle limit fired.
      const putErr = (await failure(hung.put(id, bytes))) as DomainError;
      const getErr = (await failure(hung.get(id))) as DomainError;
      for (const err of [putErr, getErr]) {
        expect(err).toBeInstanceOf(DomainError);
        expect(err.kind).toBe('unavailable');
        expect(err.message).toMatch(/object store unreachable/);
        expect(err.retryAfterSeconds).toBeGreaterThan(0);
      }
      expect(putErr.message).toMatch(/the archive was not stored/);
    });
  });

  it('minioArchiveStoreProvider binds ARCHIVE_STORE to the MinIO adapter (traced on demand)', async () => {
    const pool = { provide: PG_POOL, useValue: seeded.pool };
    const settings = { ...minioBase, bucket: bucket.settings.bucket };
    const moduleRef = await Test.createTestingModule({ providers: [pool, minioArchiveStoreProvider(settings)] }).compile();
    const resolved = moduleRef.get(ARCHIVE_STORE);
    expect(resolved).toBeInstanceOf(MinioArchiveStore);
    expect((resolved as MinioArchiveStore).bucket).toBe(bucket.settings.bucket);
    await moduleRef.close();

    // With tracing on, ARCHIVE_STORE is the span-emitting wrapper around the same adapter.
    const tracedRef = await Test.createTestingModule({
      providers: [pool, ...tracedArchiveStoreProviders(minioArchiveStoreProvider(settings), 'minio')],
    }).compile();
    const tracedStore = tracedRef.get<ArchiveStore>(ARCHIVE_STORE);
    expect(tracedStore).not.toBeInstanceOf(MinioArchiveStore);
    const bytes = archiveBytes('traced');
    const id = await seeded.newProduction(bytes);
    await expect(tracedStore.put(id, bytes)).resolves.toMatchObject({ key: `productions/${id}.tar.gz` });
    await expect(tracedStore.get(id)).resolves.toEqual(bytes);
    await tracedRef.close();
  });

  async function listKeys(name: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of bucket.client.listObjectsV2(name, '', true)) keys.push((item as { name: string }).name);
    return keys;
  }
});
