/**
 * Ports of the catalogue the admin, statement and report endpoints manage (users, exercises,
 * sequences, sessions, enrolments, student statements, the production list). The HTTP
 * controllers (libs/api) depend on these only; libs/persistence implements them and binds
 * each token to its PostgreSQL class (inbound code never names an adapter).
 */
import type {
  BusinessSession,
  Exercise,
  ExerciseProduction,
  Sequence,
  StudentStatement,
  User,
} from './entities';
import type { ExerciseState, Role } from './enums';

export interface NewUser {
  email: string;
  passwordHash: string;
  firstname: string;
  lastname: string;
  role: Role;
}
export type UserPatch = Partial<NewUser>;

export type NewExercise = Omit<Exercise, 'id'>;
export type ExercisePatch = Partial<NewExercise>;

/** The author is optional: a sequence created without one is changed by admins only. */
export type NewSequence = Omit<Sequence, 'id' | 'authorId'> & { authorId?: number | null };
export type SequencePatch = Partial<Omit<NewSequence, 'authorId'>>;

export type NewSession = Omit<BusinessSession, 'id'>;

export type NewStatement = Omit<StudentStatement, 'id'>;
export type StatementPatch = Partial<Pick<StudentStatement, 'statementHtml' | 'questionArchive' | 'deadline'>>;

export interface StatementFilter {
  userId?: number;
  sessionId?: number;
  exerciseId?: number;
  limit: number;
  offset: number;
}

export interface ProductionFilter {
  userId?: number;
  exerciseId?: number;
  statementId?: number;
  limit: number;
  offset: number;
}

/** `null` from update and `false` from delete: no such row. */
export interface UserRepository {
  findById(id: number): Promise<User | null>;
  list(opts: { role?: Role; limit: number; offset: number }): Promise<User[]>;
  create(u: NewUser): Promise<User>;
  update(id: number, patch: UserPatch): Promise<User | null>;
  delete(id: number): Promise<boolean>;
}
export const USER_REPOSITORY = Symbol('UserRepository');

export interface ExerciseRepository {
  findById(id: number): Promise<Exercise | null>;
  list(opts: { state?: ExerciseState; limit: number; offset: number }): Promise<Exercise[]>;
  create(e: NewExercise): Promise<Exercise>;
  update(id: number, p: ExercisePatch): Promise<Exercise | null>;
  delete(id: number): Promise<boolean>;
}
export const EXERCISE_REPOSITORY = Symbol('ExerciseRepository');

export interface SequenceRepository {
  findById(id: number): Promise<Sequence | null>;
  list(opts: { limit: number; offset: number }): Promise<Sequence[]>;
  create(s: NewSequence): Promise<Sequence>;
  update(id: number, p: SequencePatch): Promise<Sequence | null>;
  delete(id: number): Promise<boolean>;
}
export const SEQUENCE_REPOSITORY = Symbol('SequenceRepository');

export interface SessionRepository {
  findById(id: number): Promise<BusinessSession | null>;
  list(opts: { studentId?: number; limit: number; offset: number }): Promise<BusinessSession[]>;
  create(s: NewSession): Promise<BusinessSession>;
  update(id: number, p: Partial<NewSession>): Promise<BusinessSession | null>;
  delete(id: number): Promise<boolean>;
}
export const SESSION_REPOSITORY = Symbol('SessionRepository');

export interface EnrolmentRepository {
  /** Idempotent: enrolling twice is not an error. */
  enrol(sessionId: number, userIds: number[]): Promise<number>;
  isEnrolled(sessionId: number, userId: number): Promise<boolean>;
  listUserIds(sessionId: number): Promise<number[]>;
  unenrol(sessionId: number, userId: number): Promise<boolean>;
}
export const ENROLMENT_REPOSITORY = Symbol('EnrolmentRepository');

export interface StatementRepository {
  findById(id: number): Promise<StudentStatement | null>;
  list(f: StatementFilter): Promise<StudentStatement[]>;
  /** Ids of the statements of these students in one session (what an enrolment change makes stale in a cache). */
  idsInSession(sessionId: number, userIds: number[]): Promise<number[]>;
  create(s: NewStatement): Promise<StudentStatement>;
  update(id: number, p: StatementPatch): Promise<StudentStatement | null>;
  delete(id: number): Promise<boolean>;
}
export const STATEMENT_REPOSITORY = Symbol('StatementRepository');

/** The production list endpoint's read (newest first; students are filtered to their own userId). */
export interface ProductionListing {
  findById(id: number): Promise<ExerciseProduction | null>;
  list(filter: ProductionFilter): Promise<ExerciseProduction[]>;
}
export const PRODUCTION_LISTING = Symbol('ProductionListing');
