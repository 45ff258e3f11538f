/**
 * In-memory fakes of the domain's ports, for the unit tests of the two use cases (the
 * submission, the grading worker): unit tests only.
 */
import { createHash } from 'node:crypto';
import type { Exercise, ExerciseProduction, StudentStatement } from '../../src/entities';
import type { ArchiveStore, Grader, LoadedForGrading, NewProduction, ProductionOutcome, ProductionRepository, SubmissionContextReader } from '../../src/ports';

/**
 * A production repository over `rows` (what the tests read back): a submission key creates once,
 * and a production completes once (a second outcome is not recorded: null).
 */
export function inMemoryProductions(rows: Map<number, ExerciseProduction>): ProductionRepository {
  const keys = new Map<string, number>();
  let nextId = Math.max(0, ...rows.keys()) + 1;
  return {
    create: jest.fn(async (p: NewProduction) => {
      const existing = keys.get(p.submissionKey);
      if (existing) return { production: rows.get(existing)!, created: false };
      const row = { ...p, id: nextId++, grade: null, comment: [], failureReason: null, createdAt: new Date(), gradedAt: null } as ExerciseProduction;
      rows.set(row.id, row);
      keys.set(p.submissionKey, row.id);
      return { production: row, created: true };
    }),
    findById: jest.fn(async (id: number) => rows.get(id) ?? null),
    setStatus: jest.fn(async (id: number, status: 'queued' | 'grading') => void (rows.get(id)!.status = status)),
    complete: jest.fn(async (id: number, outcome: ProductionOutcome) => {
      const row = rows.get(id)!;
      if (row.status === 'graded' || row.status === 'failed') return null;
      Object.assign(row, 'grade' in outcome ? { status: 'graded', ...outcome } : { status: 'failed', failureReason: outcome.failureReason });
      return { ...row };
    }),
    delete: jest.fn(async (id: number) => void rows.delete(id)),
    deleteAll: jest.fn(async () => rows.size),
    reclaimInterrupted: jest.fn(async () => []),
  };
}

/** The ports over in-memory maps; `deadline`: the statement's. */
export function fakes(deadline: Date | null = null) {
  const rows = new Map<number, ExerciseProduction>();
  const stored = new Map<number, Buffer>();
  const statement = { id: 7, userId: 1, sessionId: 1, exerciseId: 2, statementHtml: '<p/>', questionArchive: Buffer.from('q'), deadline } as StudentStatement;
  const exercise = { id: 2, graderScript: 'print()', locale: 'en', state: 'published' } as Exercise;
  const session = { id: 1, startsAt: new Date(Date.now() - 86_400_000), endsAt: new Date(Date.now() + 86_400_000) };
  const context: SubmissionContextReader = { load: jest.fn(async () => ({ statement, exercise, session, enrolled: true })) };
  const productions = inMemoryProductions(rows);
  const archives: ArchiveStore = {
    put: jest.fn(async (id: number, bytes: Buffer) => {
      stored.set(id, bytes);
      return { key: String(id), sha256: '' };
    }),
    get: jest.fn(async (id: number) => stored.get(id)!),
    delete: jest.fn(async () => undefined),
  };
  const grader: Grader = { grade: jest.fn(async () => ({ grade: 50, comment: [] })) };
  return { rows, context, productions, archives, grader };
}


export type Fakes = ReturnType<typeof fakes>;

export const validator = { validate: jest.fn(async () => undefined) };

export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The owner of the fakes' statement, and a command of theirs. */
export const owner = { userId: 1, exerciseId: 2, statementId: 7 };

/** The fakes with an archive store that keeps its bytes in the row, and a reader that takes productions with them. */
export function inRow() {
  const f = fakes();
  const rowArchives = new Map<number, Buffer>();
  const archives: ArchiveStore = { ...f.archives, inProductionRow: true };
  const create = f.productions.create as jest.Mock;
  const baseCreate = create.getMockImplementation()!;
  create.mockImplementation(async (p: NewProduction) => {
    const made = await baseCreate(p);
    if (made.created && p.archive) rowArchives.set(made.production.id, p.archive);
    return made;
  });
  const loaded = { statement: { id: 7, statementHtml: '<p/>', questionArchive: Buffer.from('q') } as StudentStatement, exercise: { id: 2, graderScript: 'print()', locale: 'en' } as Exercise, session: { id: 1, startsAt: new Date(0), endsAt: new Date(0) }, enrolled: true };
  const loadForGrading = jest.fn(async (id: number, options: { take?: boolean } = {}): Promise<LoadedForGrading | null> => {
    const row = f.rows.get(id);
    if (!row) return null;
    if (!options.take) return { production: { ...row }, context: loaded };
    const final = row.status === 'graded' || row.status === 'failed';
    if (!final) row.status = 'grading';
    return { production: { ...row }, context: loaded, taken: !final, archive: rowArchives.get(id) ?? null };
  });
  const context: SubmissionContextReader = { ...f.context, loadForGrading };
  return { ...f, archives, context, rowArchives, loadForGrading };
}
