/**
 * Every view answers what the contract (libs/api-contract) says, on the wire: its JSON parses
 * with the body's schema, no key more or less, and a timestamp is the ISO string JSON made of
 * the Date before the views were typed (the SPA and the HTTP clients read the same bytes).
 */
import {
  businessSessionBody,
  exerciseBody,
  productionBody,
  sequenceBody,
  sessionProductionBody,
  sessionReportBody,
  sessionUserBody,
  statementBody,
  submissionGradedBody,
  submissionQueuedBody,
} from '@shellgrade/api-contract';
import type { ExerciseProduction, SessionReport } from '@shellgrade/domain';
import type { z } from 'zod';
import { exerciseView, sequenceView, sessionView, statementView, userView } from './admin/views';
import { productionView, submissionGradedView, submissionQueuedView } from './production/production.view';
import { sessionProductionView, sessionReportView } from './report/session-report.view';

const at = new Date('2026-11-28T10:00:00.123Z');

/** The view's answer as the client receives it, parsed strictly by the contract's schema. */
function onTheWire(schema: z.ZodObject, view: unknown): Record<string, unknown> {
  const wire = JSON.parse(JSON.stringify(view)) as Record<string, unknown>;
  const parsed = schema.strict().safeParse(wire);
  if (!parsed.success) throw new Error(`the view does not answer the contract: ${parsed.error.message}`);
  return wire;
}

const production: ExerciseProduction = {
  id: 7, userId: 3, exerciseId: 2, statementId: 5, status: 'graded', grade: 75,
  comment: [{ numQ: 1, verif: 'answers.txt line 1', status: 'OK', expl: 'answer 1 is correct' }],
  failureReason: null, submissionKey: 'k', archiveSize: 812, archiveSha256: 'ab'.repeat(32), createdAt: at, gradedAt: null,
};

describe('views answer the API contract', () => {
  it('users, exercises (list and full, student and staff) and sequences', () => {
    onTheWire(sessionUserBody, userView({ id: 1, email: 'a@b.c', firstname: 'A', lastname: 'B', role: 'student' }));
    const exercise = { id: 2, slug: 'paper-scripts', name: 'Paper', statementHtml: '<p/>', questionArchive: Buffer.from([1, 2]), graderScript: 'print(1)', state: 'published' as const, locale: 'en', skills: ['tar'], authorId: null };
    expect(onTheWire(exerciseBody, exerciseView(exercise, { full: false, staff: false }))).not.toHaveProperty('question_archive');
    expect(onTheWire(exerciseBody, exerciseView(exercise, { full: true, staff: false }))).not.toHaveProperty('grader_script');
    expect(onTheWire(exerciseBody, exerciseView(exercise, { full: true, staff: true }))).toMatchObject({ question_archive: 'AQI=', grader_script: 'print(1)' });
    onTheWire(sequenceBody, sequenceView({ id: 4, name: 'S', description: '', exerciseIds: [2], authorId: 9 }));
  });

  it('sessions and statements, their timestamps as JSON wrote the Date', () => {
    const session = onTheWire(businessSessionBody, sessionView({ id: 6, name: 'TP', sequenceId: 4, startsAt: at, endsAt: at, enrolmentKeyHash: 'h', teacherId: null }));
    expect(session.starts_at).toBe(JSON.parse(JSON.stringify(at)));
    expect(session).not.toHaveProperty('enrolment_key'); // stored hashed: never in a plain view
    const statement = { id: 5, userId: 3, sessionId: 6, exerciseId: 2, statementHtml: '<p/>', questionArchive: Buffer.from([1]), deadline: null };
    expect(onTheWire(statementBody, statementView(statement, false)).deadline).toBeNull();
    expect(onTheWire(statementBody, statementView({ ...statement, deadline: at }, true)).deadline).toBe(at.toISOString());
  });

  it('productions, both answers to a submission, and the rows of a session', () => {
    expect(onTheWire(productionBody, productionView(production))).toMatchObject({ created_at: at.toISOString(), graded_at: null });
    onTheWire(productionBody, productionView({ ...production, status: 'failed', grade: null, comment: [], failureReason: 'grader crashed', gradedAt: at }));
    onTheWire(submissionGradedBody, submissionGradedView(production));
    expect(onTheWire(submissionQueuedBody, submissionQueuedView({ ...production, status: 'queued' }, null))).toEqual({ ep_id: 7, status: 'queued' });
    onTheWire(submissionQueuedBody, submissionQueuedView({ ...production, status: 'queued' }, { ahead: 3, estimatedWaitS: null }));
    onTheWire(sessionProductionBody, sessionProductionView({ productionId: 7, userId: 3, exerciseId: 2, statementId: 5, status: 'grading', grade: null, createdAt: at }));
  });

  it("a session's report", () => {
    const report: SessionReport = {
      sessionId: 6, name: 'TP', passMark: 50,
      totals: { students: 1, exercises: 1, productions: 1, graded: 1, failed: 0, pending: 0 },
      gradeDistribution: { '0-9': 0, '10-19': 0, '20-29': 0, '30-39': 0, '40-49': 0, '50-59': 0, '60-69': 0, '70-79': 1, '80-89': 0, '90-99': 0, '100': 0 },
      meanGrade: 75,
      exercises: [{ exerciseId: 2, attempts: 1, studentsAttempted: 1, studentsPassed: 1, passRate: 1, meanBestGrade: 75 }],
      students: [{ userId: 3, firstname: 'A', lastname: 'B', email: 'a@b.c', attempts: 1, bestGrades: { '2': 75 }, exercisesPassed: 1, progress: 1, lastSubmissionAt: at }],
    };
    expect(onTheWire(sessionReportBody, sessionReportView(report))).toMatchObject({ students: [{ last_submission_at: at.toISOString() }] });
  });
});
