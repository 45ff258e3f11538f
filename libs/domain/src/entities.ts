/** Entities of ShellOnYou (docs/design.md, Domain). Plain data: no ORM, no transport types. */
import type { CheckStatus, ExerciseState, ProductionStatus, Role } from './enums';

export interface User {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  role: Role;
}

export interface Exercise {
  id: number;
  /** Stable catalog key (e.g. "paper-scripts"); unique. */
  slug: string;
  name: string;
  statementHtml: string;
  /** The question archive given to students (.tar.gz bytes). */
  questionArchive: Buffer;
  /** Python source of the grading script. */
  graderScript: string;
  state: ExerciseState;
  locale: string;
  skills: string[];
  authorId: number | null;
}

export interface Sequence {
  id: number;
  name: string;
  description: string;
  exerciseIds: number[];
  authorId: number | null;
}

export interface BusinessSession {
  id: number;
  name: string;
  sequenceId: number;
  startsAt: Date;
  endsAt: Date;
  /** The enrolment key, hashed (never stored or shown in clear). */
  enrolmentKeyHash: string;
  teacherId: number | null;
}

export interface StudentStatement {
  id: number;
  userId: number;
  sessionId: number;
  exerciseId: number;
  statementHtml: string;
  questionArchive: Buffer;
  deadline: Date | null;
}

export interface FeedbackItem {
  numQ: number;
  verif: string;
  status: CheckStatus;
  expl: string;
}

export interface ExerciseProduction {
  id: number;
  userId: number;
  exerciseId: number;
  /** Student statement ("ps_id" in the original SPA). */
  statementId: number;
  status: ProductionStatus;
  grade: number | null;
  comment: FeedbackItem[];
  /** Why grading failed, when status is 'failed'. */
  failureReason: string | null;
  /** Client-supplied idempotency key; one production per key (broker redelivery). */
  submissionKey: string;
  archiveSize: number;
  archiveSha256: string;
  createdAt: Date;
  gradedAt: Date | null;
}
