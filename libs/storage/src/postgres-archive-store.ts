import { type ArchiveStore, notFound, sha256Hex, verifiedArchive } from '@shellgrade/domain';
import type { Pool } from 'pg';

export { sha256Hex } from '@shellgrade/domain';

/**
 * Archives inline in exercise_productions.archive (bytea, TOASTed), as the paper's
 * monolith does. put() also records size and sha256 so get() can prove integrity.
 * inProductionRow: a submission writes the bytes with its row and a grading worker reads them
 * with it (one statement each); put and get serve everything else (tools, other callers).
 */
export class PostgresArchiveStore implements ArchiveStore {
  readonly inProductionRow = true;

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
    if (!row) throw notFound('archive of exercise production', productionId);
    return verifiedArchive(productionId, row.archive, row.archive_sha256);
  }

  /** Drops the bytes, keeps the production row (its grade and feedback stay readable). */
  async delete(productionId: number): Promise<void> {
    await this.pool.query('UPDATE exercise_productions SET archive = NULL WHERE id = $1', [productionId]);
  }
}
