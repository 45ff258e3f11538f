import type { Readable } from 'node:stream';
import { type ArchiveStore, DomainError, notFound } from '@shellgrade/domain';
import type { Client } from 'minio';
import type { Pool } from 'pg';
import { createMinioClient, type MinioSettings } from './minio-client';
import { productionObjectKey } from './object-keys';
import { objectStoreUnavailable, s3Code } from './object-store-errors';
import { sha256Hex } from './postgres-archive-store';

/**
 * Archives as objects `productions/<id>.tar.gz` in a MinIO bucket; the production row keeps
 * archive_size and archive_sha256 (written by SubmissionService before put) and, once the
 * object is stored, archive_key.
 *
 * Write order (see README): row first ('received', no key), then the object, then the key.
 * A failed put leaves no key and SubmissionService deletes the row; a process that dies in
 * between leaves a keyless 'received' row and maybe an object: `sweep` fails such rows and
 * removes objects without a row.
 *
 * get() streams the object and stops reading past archive_size, then verifies the sha256.
 * It returns a Buffer because the grading port (GradingJob.submission) takes one: archives
 * are capped at the spec's http.maxArchiveBytes (1 MiB by default) at submission time.
 */
export class MinioArchiveStore implements ArchiveStore {
  private bucketReady: Promise<void> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly client: Client,
    private readonly settings: Pick<MinioSettings, 'bucket' | 'endpoint'>,
  ) {}

  static create(pool: Pool, settings: MinioSettings): MinioArchiveStore {
    return new MinioArchiveStore(pool, createMinioClient(settings), settings);
  }

  get bucket(): string {
    return this.settings.bucket;
  }

  /** Creates the bucket unless it exists; idempotent and safe against a concurrent creator. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= this.createBucketIfMissing().catch((error: unknown) => {
      this.bucketReady = null; // try again on the next call
      throw objectStoreUnavailable(error, this.settings.endpoint, `create bucket ${this.bucket}`);
    });
    return this.bucketReady;
  }

  async put(productionId: number, bytes: Buffer): Promise<{ key: string; sha256: string }> {
    const key = productionObjectKey(productionId);
    const sha256 = sha256Hex(bytes);
    await this.putObject(key, bytes, sha256);
    // Size and sha256 are SubmissionService's already; recording them here keeps get() right for any caller.
    const { rowCount } = await this.pool.query(
      'UPDATE exercise_productions SET archive_key = $2, archive = NULL, archive_sha256 = $3, archive_size = $4 WHERE id = $1',
      [productionId, key, sha256, bytes.length],
    );
    if (rowCount !== 1) {
      // The row went away meanwhile (reset): do not leave its object behind.
      await this.client.removeObject(this.bucket, key).catch(() => undefined);
      throw notFound('exercise production', productionId);
    }
    return { key, sha256 };
  }

  /** The stored bytes, read as a stream capped at the recorded size and checked against the recorded sha256. */
  async get(productionId: number): Promise<Buffer> {
    const { rows } = await this.pool.query<{ archive_sha256: string; archive_size: number }>(
      'SELECT archive_sha256, archive_size FROM exercise_productions WHERE id = $1',
      [productionId],
    );
    const row = rows[0];
    if (!row) throw notFound('exercise production', productionId);
    const key = productionObjectKey(productionId);
    const expected = row.archive_sha256.trim();

    let stream: Readable;
    try {
      stream = await this.client.getObject(this.bucket, key);
    } catch (error) {
      if (s3Code(error) === 'NoSuchKey') throw notFound('archive of exercise production', productionId);
      throw objectStoreUnavailable(error, this.settings.endpoint, `get ${key}`);
    }
    const bytes = await this.collect(stream, row.archive_size, key, productionId);
    const actual = sha256Hex(bytes);
    if (actual !== expected) throw corrupt(productionId, key, { expected, actual });
    return bytes;
  }

  /** Removes the object and forgets its key; the production row (grade, feedback) stays. */
  async delete(productionId: number): Promise<void> {
    const key = productionObjectKey(productionId);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      throw objectStoreUnavailable(error, this.settings.endpoint, `delete ${key}`);
    }
    await this.pool.query('UPDATE exercise_productions SET archive_key = NULL WHERE id = $1', [productionId]);
  }

  private async putObject(key: string, bytes: Buffer, sha256: string): Promise<void> {
    const consequence = 'the archive was not stored, retry later';
    const attempt = () =>
      this.client.putObject(this.bucket, key, bytes, bytes.length, {
        'Content-Type': 'application/gzip',
        'X-Amz-Meta-Sha256': sha256,
      });
    try {
      await attempt();
    } catch (error) {
      if (s3Code(error) !== 'NoSuchBucket') throw objectStoreUnavailable(error, this.settings.endpoint, `put ${key}`, consequence);
      // The server came back empty (wiped data dir): recreate the bucket once.
      this.bucketReady = null;
      await this.ensureBucket();
      await attempt().catch((again: unknown) => {
        throw objectStoreUnavailable(again, this.settings.endpoint, `put ${key}`, consequence);
      });
    }
  }

  private async createBucketIfMissing(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, 'us-east-1');
    } catch (error) {
      const code = s3Code(error);
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
    }
  }

  /** Reads the object, refusing more than `size` bytes (a replaced object cannot blow up memory). */
  private async collect(stream: Readable, size: number, key: string, productionId: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        total += buf.length;
        if (total > size) {
          stream.destroy();
          throw corrupt(productionId, key, { expectedSize: size, actualSize: `> ${size}` });
        }
        chunks.push(buf);
      }
    } catch (error) {
      throw objectStoreUnavailable(error, this.settings.endpoint, `read ${key}`);
    }
    if (total !== size) throw corrupt(productionId, key, { expectedSize: size, actualSize: total });
    return Buffer.concat(chunks, total);
  }
}

/** Same kind and wording as the postgres adapter: the stored bytes are not the submitted ones. */
function corrupt(productionId: number, key: string, facts: Record<string, unknown>): DomainError {
  const what = 'expected' in facts ? 'sha256 mismatch' : 'size mismatch';
  return new DomainError('grading-failed', `archive of production ${productionId} is corrupt (${what})`, {
    key,
    reason: 'archive-integrity',
    ...facts,
  });
}
