import { randomBytes } from 'node:crypto';
import { sha256Hex, type ProductionRepository } from '@shellgrade/domain';
import type { SeededStudent } from './seed';

/** A 'received' production of a seeded student whose archive will be `bytes` (not stored: the test or bench stores it). */
export async function createReceivedProduction(
  productions: ProductionRepository,
  student: Pick<SeededStudent, 'userId' | 'statementId'>,
  exerciseId: number,
  bytes: Buffer,
): Promise<number> {
  const { production } = await productions.create({
    userId: student.userId,
    exerciseId,
    statementId: student.statementId,
    submissionKey: randomBytes(12).toString('hex'),
    archiveSize: bytes.length,
    archiveSha256: sha256Hex(bytes),
    status: 'received',
  });
  return production.id;
}
