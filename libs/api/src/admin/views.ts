/** Entity → JSON as the original SPA expects it (snake_case ids); hides what a role may not see. */
import type { BusinessSessionBody, ExerciseBody, SequenceBody, SessionUserBody, StatementBody } from '@shellgrade/api-contract';
import type { BusinessSession, Exercise, Sequence, StudentStatement, User } from '@shellgrade/domain';
import { isoTime } from './iso-time';

export const userView = (u: User): SessionUserBody => ({ user_id: u.id, email: u.email, firstname: u.firstname, lastname: u.lastname, role: u.role });

export function exerciseView(e: Exercise, opts: { full: boolean; staff: boolean }): ExerciseBody {
  return {
    ex_id: e.id,
    slug: e.slug,
    name: e.name,
    statement: e.statementHtml,
    state: e.state,
    locale: e.locale,
    skills: e.skills,
    author_id: e.authorId,
    ...(opts.full ? { question_archive: e.questionArchive.toString('base64') } : {}),
    // The grading script stays with staff: it tells a student what is checked.
    ...(opts.full && opts.staff ? { grader_script: e.graderScript } : {}),
  };
}

export const sequenceView = (s: Sequence): SequenceBody => ({
  sequence_id: s.id,
  name: s.name,
  description: s.description,
  exercises: s.exerciseIds,
  author_id: s.authorId,
});

/** The enrolment key is stored hashed: only the create/update answer that set it shows it. */
export const sessionView = (s: BusinessSession): BusinessSessionBody => ({
  session_id: s.id,
  name: s.name,
  sequence_id: s.sequenceId,
  starts_at: isoTime(s.startsAt),
  ends_at: isoTime(s.endsAt),
  teacher_id: s.teacherId,
});

export const statementView = (s: StudentStatement, full: boolean): StatementBody => ({
  ps_id: s.id,
  user_id: s.userId,
  session_id: s.sessionId,
  ex_id: s.exerciseId,
  statement: s.statementHtml,
  deadline: isoTime(s.deadline),
  ...(full ? { question_archive: s.questionArchive.toString('base64') } : {}),
});
