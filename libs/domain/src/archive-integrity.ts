/**
 * An archive is stored with the sha256 of the bytes the student sent, and every reader of a
 * stored archive proves it is still those bytes before grading them: the submission records the
 * digest, the archive stores and the grading worker check it.
 */
import { createHash } from 'node:crypto';
import { DomainError, notFound } from './errors';

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The archive bytes a production's row holds, proven to be the ones submitted: not-found when
 * none were stored, grading-failed (final: a corrupt archive is never regraded) when they no
 * longer match the sha256 recorded with the row. One rule for every reader of a row's archive
 * (the postgres archive store, a grading worker that read the archive with the row).
 */
export function verifiedArchive(productionId: number, bytes: Buffer | null | undefined, recordedSha256: string): Buffer {
  if (!bytes) throw notFound('archive of exercise production', productionId);
  const expected = recordedSha256.trim();
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new DomainError('grading-failed', `archive of production ${productionId} is corrupt (sha256 mismatch)`, { expected, actual });
  }
  return bytes;
}
