/**
 * Repairs what a crash between the two writes of a submission can leave behind
 * (row first, then object — see MinioArchiveStore):
 *  - objects under productions/ whose production row does not exist (the row was deleted
 *    after a failed put, or by a reset while the object was being written);
 *  - rows still 'received' that never got their archive (no bytea, no key): the process
 *    died between the insert and the store. They become 'failed' ("archive never stored")
 *    so clients polling them get a final answer, and any partial object is removed.
 * Only things older than `olderThanS` are touched, so in-flight submissions are left alone.
 */
import type { Client } from 'minio';
import type { Pool } from 'pg';
import { listObjects, productionIdOfKey, productionObjectKey, removeObjectsInBatches } from '@shellgrade/storage';


export const ARCHIVE_NEVER_STORED = 'archive never stored';
export const DEFAULT_SWEEP_AGE_S = 300;

export interface SweepOptions {
  pool: Pool;
  /** The object store, when archives live there (SG_STORAGE=minio or keyed rows exist). */
  objects?: { client: Client; bucket: string };
  olderThanS?: number;
  now?: Date;
}

export interface SweepReport {
  objectsScanned: number;
  orphanObjectsDeleted: number;
  /** Objects under productions/ whose name is not one we derive from an id: reported, never deleted. */
  foreignObjects: number;
  rowsFailed: number;
  olderThanS: number;
}

export async function sweep(opts: SweepOptions): Promise<SweepReport> {
  const olderThanS = opts.olderThanS ?? DEFAULT_SWEEP_AGE_S;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - olderThanS * 1000);
  const report: SweepReport = { objectsScanned: 0, orphanObjectsDeleted: 0, foreignObjects: 0, rowsFailed: 0, olderThanS };

  const { rows: failed } = await opts.pool.query<{ id: number }>(
    `UPDATE exercise_productions
        SET status = 'failed', failure_reason = $2, graded_at = now()
      WHERE status = 'received' AND archive IS NULL AND archive_key IS NULL AND created_at < $1
      RETURNING id`,
    [cutoff, ARCHIVE_NEVER_STORED],
  );
  report.rowsFailed = failed.length;
  if (!opts.objects) return report;
  const { client, bucket } = opts.objects;

  const candidates = new Map<number, string>();
  for (const object of await listObjects(client, bucket)) {
    report.objectsScanned++;
    const id = productionIdOfKey(object.key);
    if (id === null) report.foreignObjects++;
    else if (object.lastModified < cutoff) candidates.set(id, object.key);
  }
  const { rows: alive } = await opts.pool.query<{ id: number }>(
    'SELECT id FROM exercise_productions WHERE id = ANY($1::int[])',
    [[...candidates.keys()]],
  );
  for (const { id } of alive) candidates.delete(id);
  // Partial objects of the rows just failed are garbage too.
  const doomed = [...candidates.values(), ...failed.map(({ id }) => productionObjectKey(id))];
  await removeObjectsInBatches(client, bucket, doomed);
  report.orphanObjectsDeleted = candidates.size;
  return report;
}
