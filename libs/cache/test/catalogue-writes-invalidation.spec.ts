/**
 * The write decorators tell the cache after a write that happened, and only then: a failed update
 * or delete (no such row) stales nothing; an enrolment change stales the statements of exactly the
 * students it named in that session. Fakes (unit test); the Redis side is context-cache.int.ts's.
 */
import type { EnrolmentRepository, Exercise, ExerciseRepository, StatementRepository, StudentStatement, SubmissionContextInvalidation } from '@shellgrade/domain';
import { EnrolmentWritesInvalidation, ExerciseWritesInvalidation, StatementWritesInvalidation } from '../src/catalogue-writes-invalidation';

function recording() {
  const told: string[] = [];
  const contexts: SubmissionContextInvalidation = {
    exerciseChanged: async (id) => void told.push(`exercise ${id}`),
    statementChanged: async (id) => void told.push(`statement ${id}`),
  };
  return { told, contexts };
}

/** A repository whose rows 1 and 2 exist. */
const rows = <T>(row: T) => ({
  update: async (id: number) => (id <= 2 ? row : null),
  delete: async (id: number) => id <= 2,
});

describe('catalogue writes invalidate the cached submission contexts', () => {
  it('an exercise updated or deleted is announced; one that does not exist is not', async () => {
    const { told, contexts } = recording();
    const exercises = new ExerciseWritesInvalidation(rows({ id: 1 } as Exercise) as unknown as ExerciseRepository, contexts);
    await exercises.update(1, { graderScript: 'new' });
    await exercises.update(9, { graderScript: 'new' });
    await exercises.delete(2);
    await exercises.delete(9);
    expect(told).toEqual(['exercise 1', 'exercise 2']);
  });

  it('a statement updated or deleted is announced; one that does not exist is not', async () => {
    const { told, contexts } = recording();
    const statements = new StatementWritesInvalidation(rows({ id: 1 } as StudentStatement) as unknown as StatementRepository, contexts);
    await statements.update(2, { deadline: null });
    await statements.update(9, { deadline: null });
    await statements.delete(1);
    await statements.delete(9);
    expect(told).toEqual(['statement 2', 'statement 1']);
  });

  it("an enrolment stales the named students' statements in that session; an unenrolment of nobody stales nothing", async () => {
    const { told, contexts } = recording();
    const asked: [number, number[]][] = [];
    const statements = { idsInSession: async (sessionId: number, userIds: number[]) => (asked.push([sessionId, userIds]), userIds.map((u) => u * 10)) };
    const inner = { enrol: async (_s: number, ids: number[]) => ids.length, unenrol: async (_s: number, userId: number) => userId !== 9 } as unknown as EnrolmentRepository;
    const enrolments = new EnrolmentWritesInvalidation(inner, statements, contexts);
    expect(await enrolments.enrol(7, [1, 2])).toBe(2);
    expect(await enrolments.unenrol(7, 3)).toBe(true);
    expect(await enrolments.unenrol(7, 9)).toBe(false);
    expect(asked).toEqual([[7, [1, 2]], [7, [3]]]);
    expect(told).toEqual(['statement 10', 'statement 20', 'statement 30']);
  });
});
