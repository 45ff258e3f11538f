/**
 * The teacher's CSV export neutralises formulas (OWASP CSV injection): a cell a
 * student controls (names, email) that starts with = + - @, TAB or CR is prefixed with a single
 * quote, so a spreadsheet shows it as text instead of running it.
 */
import type { SessionReport } from '@shellgrade/domain';
import { sessionReportCsv } from './session-report.view';

function reportWith(student: { firstname: string; lastname: string; email?: string }): SessionReport {
  return {
    sessionId: 1,
    name: 's',
    passMark: 50,
    totals: { students: 1, exercises: 1, productions: 1, graded: 1, failed: 0, pending: 0 },
    gradeDistribution: {} as SessionReport['gradeDistribution'],
    meanGrade: 80,
    exercises: [{ exerciseId: 7, attempts: 1, studentsAttempted: 1, studentsPassed: 1, passRate: 1, meanBestGrade: 80 }],
    students: [{ userId: 42, email: student.email ?? 'a@b.example', attempts: 1, bestGrades: { '7': 80 }, exercisesPassed: 1, progress: 1, lastSubmissionAt: null, ...student }],
  };
}

/** The cells of the one student row (a simple CSV reader: quoted cells with doubled quotes). */
function studentCells(csv: string): string[] {
  const row = csv.split('\n')[1]!;
  return [...row.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, 8).map(([, cell]) => (cell!.startsWith('"') ? cell!.slice(1, -1).replace(/""/g, '"') : cell!));
}

describe('session report CSV', () => {
  it.each(['=HYPERLINK("http://evil.example","x")', '+1+cmd|calc', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1'])('neutralises a cell starting with %j', (name) => {
    const [, , lastname] = studentCells(sessionReportCsv(reportWith({ firstname: 'ok', lastname: name })));
    expect(lastname).toBe(`'${name}`);
  });

  it('leaves ordinary cells and our own numbers as they are', () => {
    const cells = studentCells(sessionReportCsv(reportWith({ firstname: 'Zoé', lastname: "O'Neil, \"Jr\"" })));
    expect(cells).toEqual(['42', 'a@b.example', "O'Neil, \"Jr\"", 'Zoé', '1', '1', '1.000', '80']);
  });
});
