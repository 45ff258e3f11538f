import { createHash } from 'node:crypto';
import { type ArchiveStore, DomainError, notFound } from '@shellgrade/domain';
import type { Pool } from 'pg';

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Archives inline in exercise_productions.archive (bytea, TOASTed), as the paper's
 * monolith does. put() also records size and sha256 so get() can prove integrity.
 */
export class PostgresArchiveStore implements ArchiveStore {
  constructor(private readonly pool: Pool) {}

  async put(productionId: number, bytes: Buffer): Promise<{ key: string; sha256: string }> {
    const sha256 = sha256Hex(bytes);
    const key = `postgres:exercise_productions/${productionId}`;
    const { rowCount } = await this.pool.query(
      `UPDATE exercise_productions SET archive = $2, archive_key = NULL, archive_sha256 = $3, archive_size = $4 WHERE id = $1`,
      [productionId, bytes, sha256, bytes.length],
    );
    if (rowCount !== 1) throw notFound('exercise production', productionId);
    return { key, sha256 };
  }

  /** The stored bytes; DomainError when missing or when they no longer match their sha256. */
  async get(productionId: number): Promise<Buffer> {
    const { rows } = await this.pool.query<{ archive: Buffer | null; archive_sha256: string }>(
      'SELECT archive, archive_sha256 FROM exercise_productions WHERE id = $1',
      [productionId],
    );
    const row = rows[0];
    if (!row || !row.archive) throw notFound('archive of exercise production', productionId);
    const actual = sha256Hex(row.archive);
    if (actual !== row.archive_sha256.trim()) {
      throw new DomainError('grading-failed', `archive of production ${productionId} is corrupt (sha256 mismatch)`, {
        expected: row.archive_sha256.trim(),
        actual,
      });
    }
    return row.archive;
  }

  /** Drops the bytes, keeps the production row (its grade and feedback stay readable). */
  async delete(productionId: number): Promise<void> {
    await this.pool.query('UPDATE exercise_productions SET archive = NULL WHERE id = $1', [productionId]);
  }
}
