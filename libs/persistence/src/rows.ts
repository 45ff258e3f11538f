/** Row → entity mappers: the only place that knows column names. */
import type {
  BusinessSession,
  Exercise,
  ExerciseProduction,
  ExerciseState,
  FeedbackItem,
  ProductionStatus,
  Role,
  Sequence,
  StudentStatement,
  User,
} from '@shellgrade/domain';

export interface UserRow {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  role: Role;
}
export const USER_COLUMNS = 'id, email, firstname, lastname, role';
export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  role: r.role,
});

export interface ExerciseRow {
  id: number;
  slug: string;
  name: string;
  statement_html: string;
  question_archive: Buffer;
  grader_script: string;
  state: ExerciseState;
  locale: string;
  skills: string[];
  author_id: number | null;
}
export const EXERCISE_COLUMNS =
  'id, slug, name, statement_html, question_archive, grader_script, state, locale, skills, author_id';
export const toExercise = (r: ExerciseRow): Exercise => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  statementHtml: r.statement_html,
  questionArchive: r.question_archive,
  graderScript: r.grader_script,
  state: r.state,
  locale: r.locale,
  skills: r.skills,
  authorId: r.author_id,
});

export interface SequenceRow {
  id: number;
  name: string;
  description: string;
  exercise_ids: number[] | null;
  author_id: number | null;
}
export const toSequence = (r: SequenceRow): Sequence => ({
  id: r.id,
  name: r.name,
  description: r.description,
  exerciseIds: r.exercise_ids ?? [],
  authorId: r.author_id,
});

export interface SessionRow {
  id: number;
  name: string;
  sequence_id: number;
  starts_at: Date;
  ends_at: Date;
  enrolment_key_hash: string;
  teacher_id: number | null;
}
export const SESSION_COLUMNS = 'id, name, sequence_id, starts_at, ends_at, enrolment_key_hash, teacher_id';
export const toSession = (r: SessionRow): BusinessSession => ({
  id: r.id,
  name: r.name,
  sequenceId: r.sequence_id,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  enrolmentKeyHash: r.enrolment_key_hash,
  teacherId: r.teacher_id,
});

export interface StatementRow {
  id: number;
  user_id: number;
  session_id: number;
  exercise_id: number;
  statement_html: string;
  question_archive: Buffer;
  deadline: Date | null;
}
export const STATEMENT_COLUMNS = 'id, user_id, session_id, exercise_id, statement_html, question_archive, deadline';
export const toStatement = (r: StatementRow): StudentStatement => ({
  id: r.id,
  userId: r.user_id,
  sessionId: r.session_id,
  exerciseId: r.exercise_id,
  statementHtml: r.statement_html,
  questionArchive: r.question_archive,
  deadline: r.deadline,
});

export interface ProductionRow {
  id: number;
  user_id: number;
  exercise_id: number;
  statement_id: number;
  status: ProductionStatus;
  grade: number | null;
  comment: FeedbackItem[];
  failure_reason: string | null;
  submission_key: string;
  archive_size: number;
  archive_sha256: string;
  created_at: Date;
  graded_at: Date | null;
}
/** Every column but the archive bytes (read through the ArchiveStore only). */
export const PRODUCTION_COLUMNS =
  'id, user_id, exercise_id, statement_id, status, grade, comment, failure_reason, submission_key, archive_size, archive_sha256, created_at, graded_at';
export const toProduction = (r: ProductionRow): ExerciseProduction => ({
  id: r.id,
  userId: r.user_id,
  exerciseId: r.exercise_id,
  statementId: r.statement_id,
  status: r.status,
  grade: r.grade,
  comment: r.comment,
  failureReason: r.failure_reason,
  submissionKey: r.submission_key,
  archiveSize: r.archive_size,
  archiveSha256: r.archive_sha256,
  createdAt: r.created_at,
  gradedAt: r.graded_at,
});
