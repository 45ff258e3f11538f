import type { SessionProductionBody, SessionReportBody } from '@shellgrade/api-contract';
import type { SessionProductionRecord, SessionReport } from '@shellgrade/domain';
import { isoTime } from '../admin/iso-time';

/** The report as JSON (snake_case, as the rest of the API). */
export function sessionReportView(r: SessionReport): SessionReportBody {
  return {
    session_id: r.sessionId,
    name: r.name,
    pass_mark: r.passMark,
    totals: r.totals,
    grade_distribution: r.gradeDistribution,
    mean_grade: r.meanGrade,
    exercises: r.exercises.map((e) => ({
      ex_id: e.exerciseId,
      attempts: e.attempts,
      students_attempted: e.studentsAttempted,
      students_passed: e.studentsPassed,
      pass_rate: e.passRate,
      mean_best_grade: e.meanBestGrade,
    })),
    students: r.students.map((s) => ({
      user_id: s.userId,
      firstname: s.firstname,
      lastname: s.lastname,
      email: s.email,
      attempts: s.attempts,
      best_grades: s.bestGrades,
      exercises_passed: s.exercisesPassed,
      progress: s.progress,
      last_submission_at: isoTime(s.lastSubmissionAt),
    })),
  };
}

/** One production row of GET /api/exercise-productions/by-session/:id (what the HTTP client parses). */
export const sessionProductionView = (p: SessionProductionRecord): SessionProductionBody => ({
  ep_id: p.productionId,
  user_id: p.userId,
  ex_id: p.exerciseId,
  ps_id: p.statementId,
  status: p.status,
  grade: p.grade,
  created_at: isoTime(p.createdAt),
});

/** What a spreadsheet reads as the start of a formula (OWASP CSV injection): = + - @, TAB, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell that must be quoted: a separator, a quote or a line break inside. */
const NEEDS_QUOTES = /[",\n\r]/;

/**
 * One CSV cell. Text (names and emails students typed) that could start a formula gets a single
 * quote in front, so a spreadsheet shows it instead of running it; our own numbers stay numbers.
 */
function csvCell(v: unknown): string {
  const text = v === null || v === undefined ? '' : String(v);
  const neutral = typeof v !== 'number' && FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(neutral) || neutral !== text ? `"${neutral.replace(/"/g, '""')}"` : neutral;
}

/** Per-student progress as CSV (one column per exercise of the sequence): the teacher's export. */
export function sessionReportCsv(r: SessionReport): string {
  const exerciseIds = r.exercises.map((e) => e.exerciseId);
  const header = ['user_id', 'email', 'lastname', 'firstname', 'attempts', 'exercises_passed', 'progress', ...exerciseIds.map((id) => `ex_${id}`)];
  const lines = r.students.map((s) =>
    [s.userId, s.email, s.lastname, s.firstname, s.attempts, s.exercisesPassed, s.progress.toFixed(3), ...exerciseIds.map((id) => s.bestGrades[String(id)])]
      .map(csvCell)
      .join(','),
  );
  return [header.join(','), ...lines].join('\n') + '\n';
}
