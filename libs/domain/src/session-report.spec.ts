import { buildSessionReport, bucketOf, SessionReportService, type SessionProductionRecord, type SessionRoster } from './session-report';

const roster: SessionRoster = {
  sessionId: 7,
  name: 'S',
  exerciseIds: [10, 11],
  students: [
    { id: 1, firstname: 'A', lastname: 'a', email: 'a@x' },
    { id: 2, firstname: 'B', lastname: 'b', email: 'b@x' },
    { id: 3, firstname: 'C', lastname: 'c', email: 'c@x' },
  ],
};
let nextId = 1;
const prod = (userId: number, exerciseId: number, grade: number | null, status: SessionProductionRecord['status'] = 'graded', at = nextId): SessionProductionRecord => ({
  productionId: nextId++,
  userId,
  exerciseId,
  statementId: userId * 100 + exerciseId,
  status,
  grade,
  createdAt: new Date(at * 1000),
});

describe('buildSessionReport', () => {
  it('counts attempts, best grades, pass rates and progress from the productions', () => {
    const report = buildSessionReport(roster, [
      prod(1, 10, 20),
      prod(1, 10, 100), // best of student 1 on 10
      prod(1, 11, 49), // below the pass mark
      prod(2, 10, 50), // exactly the pass mark
      prod(2, 11, null, 'failed'),
      prod(2, 11, null, 'queued'),
      prod(9, 10, 100), // no longer enrolled: totals and distribution only
    ]);
    expect(report.totals).toEqual({ students: 3, exercises: 2, productions: 7, graded: 5, failed: 1, pending: 1 });
    expect(report.gradeDistribution).toMatchObject({ '20-29': 1, '40-49': 1, '50-59': 1, '100': 2, '0-9': 0 });
    expect(report.meanGrade).toBeCloseTo((20 + 100 + 49 + 50 + 100) / 5);
    expect(report.exercises).toEqual([
      { exerciseId: 10, attempts: 3, studentsAttempted: 2, studentsPassed: 2, passRate: 2 / 3, meanBestGrade: 75 },
      { exerciseId: 11, attempts: 3, studentsAttempted: 2, studentsPassed: 0, passRate: 0, meanBestGrade: 49 },
    ]);
    const [s1, s2, s3] = report.students;
    expect(s1).toMatchObject({ userId: 1, attempts: 3, bestGrades: { '10': 100, '11': 49 }, exercisesPassed: 1, progress: 0.5 });
    expect(s2).toMatchObject({ userId: 2, attempts: 3, bestGrades: { '10': 50, '11': null }, exercisesPassed: 1, progress: 0.5 });
    expect(s3).toMatchObject({ userId: 3, attempts: 0, bestGrades: { '10': null, '11': null }, exercisesPassed: 0, progress: 0, lastSubmissionAt: null });
    expect(s2!.lastSubmissionAt).toEqual(new Date(6000));
  });

  it('answers an empty session without dividing by zero', () => {
    const report = buildSessionReport({ ...roster, exerciseIds: [], students: [] }, []);
    expect(report.meanGrade).toBeNull();
    expect(report.exercises).toEqual([]);
    expect(report.totals).toEqual({ students: 0, exercises: 0, productions: 0, graded: 0, failed: 0, pending: 0 });
  });

  it('puts 100 in its own bucket and 99 below it', () => {
    expect([bucketOf(0), bucketOf(9), bucketOf(10), bucketOf(99), bucketOf(100)]).toEqual(['0-9', '0-9', '10-19', '90-99', '100']);
  });
});

describe('SessionReportService', () => {
  it('is not-found for an unknown session and does not read productions for it', async () => {
    const productionsOfSession = jest.fn(async () => []);
    const service = new SessionReportService({ roster: async () => null }, { productionsOfSession });
    await expect(service.report(5, {})).rejects.toMatchObject({ kind: 'not-found' });
    expect(productionsOfSession).not.toHaveBeenCalled();
  });

  it('hands the caller on to the productions source', async () => {
    const productionsOfSession = jest.fn(async () => [prod(1, 10, 100)]);
    const service = new SessionReportService({ roster: async () => roster }, { productionsOfSession });
    const report = await service.report(7, { accessToken: 't' });
    expect(productionsOfSession).toHaveBeenCalledWith(7, { accessToken: 't' });
    expect(report.students[0]!.bestGrades).toEqual({ '10': 100, '11': null });
  });
});
