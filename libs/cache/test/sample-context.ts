import type { SubmissionContext } from '@shellgrade/domain';

/** A submission context shaped like PgSubmissionContextReader's (test data for unit tests). */
export function sampleContext(over: { userId?: number; statementId?: number; exerciseId?: number } = {}): SubmissionContext {
  const userId = over.userId ?? 7;
  const statementId = over.statementId ?? 11;
  const exerciseId = over.exerciseId ?? 3;
  return {
    statement: {
      id: statementId,
      userId,
      sessionId: 2,
      exerciseId,
      statementHtml: '<p>Write hello.sh</p>',
      questionArchive: Buffer.from([0x1f, 0x8b, 8, 0, 0xff, 0x00, 0x7f]),
      deadline: new Date('2030-01-31T23:59:59.999Z'),
    },
    exercise: {
      id: exerciseId,
      slug: 'paper-scripts',
      name: 'Scripts of the paper',
      statementHtml: '<p>Write hello.sh</p>',
      questionArchive: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]),
      graderScript: 'print("{}")\n',
      state: 'published',
      locale: 'en',
      skills: ['scripts', 'permissions'],
      authorId: null,
    },
    session: { id: 2, startsAt: new Date('2029-09-01T00:00:00.000Z'), endsAt: new Date('2030-06-30T00:00:00.000Z') },
    enrolled: true,
  };
}
