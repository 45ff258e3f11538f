/**
 * Ports: what the domain needs from the outside world. Adapters live in other libs
 * (grading, persistence, storage, dispatch, libs/broker-*) and a variant's composition
 * root chooses which one is plugged in.
 */
import type { FeedbackItem } from './entities';

/** Everything a grading script receives (docs/design.md, Grading contract). */
export interface GradingJob {
  exerciseId: number;
  /** The production being graded, when there is one: failures are logged with it. */
  productionId?: number;
  /** Python source of the exercise's grader. */
  graderScript: string;
  statementHtml: string;
  questionArchive: Buffer;
  submission: Buffer;
  locale: string;
}

export interface GradingResult {
  grade: number;
  comment: FeedbackItem[];
}

/** Runs one grading. Rejects with DomainError('invalid-archive' | 'too-large' | 'grading-failed'). */
export interface Grader {
  grade(job: GradingJob): Promise<GradingResult>;
}
export const GRADER = Symbol('Grader');

/** Stores submitted archives (postgres bytea or an object store). */
export interface ArchiveStore {
  put(productionId: number, bytes: Buffer): Promise<{ key: string; sha256: string }>;
  /** Verifies the stored sha256; rejects with DomainError on mismatch. */
  get(productionId: number): Promise<Buffer>;
  delete(productionId: number): Promise<void>;
  /**
   * Set by a store that keeps the archive in the production's own row (postgres bytea): the
   * submission then writes the archive with the row (NewProduction.archive) and a grading worker
   * reads it with the row (SubmissionContextReader.loadForGrading), one statement each instead of
   * two; put and get stay for everything else. Unset: the archive lives apart (an object store).
   */
  readonly inProductionRow?: boolean;
}
export const ARCHIVE_STORE = Symbol('ArchiveStore');

import type {
  Exercise,
  ExerciseProduction,
  StudentStatement,
} from './entities';
import type { ProductionStatus } from './enums';

export interface NewProduction {
  userId: number;
  exerciseId: number;
  statementId: number;
  /** Idempotency key: a second create with the same key returns the first production. */
  submissionKey: string;
  archiveSize: number;
  archiveSha256: string;
  status: ProductionStatus;
  /**
   * The archive itself, written in the same statement as the row when the archive store keeps
   * it there (ArchiveStore.inProductionRow): the row never exists without its archive. Unset:
   * the archive is stored afterwards (ArchiveStore.put).
   */
  archive?: Buffer;
}

export type ProductionOutcome =
  | { grade: number; comment: ExerciseProduction['comment'] }
  | { failureReason: string };

/** Exercise productions (student submissions). Implemented in libs/persistence. */
export interface ProductionRepository {
  create(p: NewProduction): Promise<{ production: ExerciseProduction; created: boolean }>;
  findById(id: number): Promise<ExerciseProduction | null>;
  setStatus(id: number, status: 'queued' | 'grading'): Promise<void>;
  /**
   * Stores the final outcome once and returns the production as stored (one round trip: the
   * caller answers with it); null when the production was already final (redelivery) or is gone.
   */
  complete(id: number, outcome: ProductionOutcome): Promise<ExerciseProduction | null>;
  delete(id: number): Promise<void>;
  /** Deletes every production (the paper resets them after each run); returns how many. */
  deleteAll(): Promise<number>;
  /**
   * Productions still received or grading `olderThanMs` after they were created — their grading
   * process died with the request (inline dispatch) — moved back to queued, at most `limit`,
   * and returned so they are graded once instead of staying stuck.
   */
  reclaimInterrupted(olderThanMs: number, limit: number): Promise<number[]>;
}
export const PRODUCTION_REPOSITORY = Symbol('ProductionRepository');

/**
 * How much grading is waiting, across every process and broker: what a student
 * whose submission is queued, or refused because the queue is full, is told about the wait.
 * Implemented in libs/persistence (the productions table knows what is not final yet).
 */
export interface GradingBacklog {
  /** Productions not yet final submitted before `productionId`, and gradings finished per second lately (null: none finished). */
  ahead(productionId: number): Promise<{ ahead: number; finishedPerS: number | null }>;
}
export const GRADING_BACKLOG = Symbol('GradingBacklog');

/** What a submission needs to be checked and graded. Implemented in libs/persistence. */
export interface SubmissionContextReader {
  /**
   * The student statement `statementId` of `userId` for `exerciseId`, with its exercise.
   * Rejects with DomainError not-found (unknown statement/exercise, or not the user's).
   */
  load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext>;
  /**
   * A stored production with the context it is graded in, in one round trip (what a grading
   * worker in another process starts with); null when the production does not exist, a null
   * context when its statement is gone. Optional: without it the worker reads the production,
   * then `load`s the context (a cache in front answers that second read).
   * `take` (a worker about to grade with everything it needs read here: the archive is in the
   * row): the same statement also moves a production that is not final to 'grading' and
   * returns it so (`taken`), and returns the row's archive bytes (null when it has none), so
   * neither the archive read nor the status update is a round trip of its own.
   */
  loadForGrading?(productionId: number, options?: { take?: boolean }): Promise<LoadedForGrading | null>;
}
/** What SubmissionContextReader.loadForGrading read. */
export interface LoadedForGrading {
  production: ExerciseProduction;
  context: SubmissionContext | null;
  /** With `take`: the production was not final and is now 'grading' (production.status says so). */
  taken?: boolean;
  /** With `take`: the archive stored in the row, unverified (null: none stored there). */
  archive?: Buffer | null;
}
export interface SubmissionContext {
  statement: StudentStatement;
  exercise: Exercise;
  /** When the statement's session is open for submissions. */
  session: { id: number; startsAt: Date; endsAt: Date };
  /** Whether the student is (still) enrolled in that session. */
  enrolled: boolean;
}
export const SUBMISSION_CONTEXT = Symbol('SubmissionContextReader');

/**
 * Told after an exercise or a student statement was updated or deleted, so a read-path cache
 * (libs/cache, `cache: redis`) drops the submission contexts built from the old row. Never
 * rejects: a cache that cannot be reached must not fail the write that already happened.
 */
export interface SubmissionContextInvalidation {
  exerciseChanged(exerciseId: number): Promise<void>;
  statementChanged(statementId: number): Promise<void>;
}
export const SUBMISSION_CONTEXT_INVALIDATION = Symbol('SubmissionContextInvalidation');

/** The invalidation of a variant without a cache (`cache: none`): nothing to drop. */
export const noSubmissionContextCache: SubmissionContextInvalidation = {
  exerciseChanged: async () => undefined,
  statementChanged: async () => undefined,
};

/** Rejects hostile or oversized archives before anything is stored (DomainError 422/413). */
export interface ArchiveValidator {
  validate(bytes: Buffer): Promise<void>;
}
export const ARCHIVE_VALIDATOR = Symbol('ArchiveValidator');

/** A stored production handed to whatever grades it. */
export interface GradingRequest {
  productionId: number;
  /** The production as just created, when the dispatcher grades in this process (inline): not read back. */
  production?: ExerciseProduction;
  /** The archive when the dispatcher already holds it (inline); adapters that cross a process send only the id/key. */
  archive?: Buffer;
  /** The statement and exercise when the dispatcher already loaded them (inline), so they are not read twice. */
  context?: SubmissionContext;
  /** When the request entered the system (epoch ms): a sync reply's timeout counts from here. */
  receivedAt?: number;
}

/**
 * How a submission reaches a grader: inline (same process), a broker (rabbitmq, bullmq).
 * Resolves with the production as it stands when the reply is due: final for `sync`
 * replies, `queued` for `async` ones.
 */
export interface GradingDispatch {
  dispatch(req: GradingRequest): Promise<ExerciseProduction>;
  /**
   * What a production whose archive is written with its row (ArchiveStore.inProductionRow) is
   * created as — stored whole in one step, so nothing is left for a status update to wait for:
   * 'queued' by a dispatch that queues what it is handed (a broker: about to be published),
   * 'grading' by one that grades it in this request (inline). Neither updates the status again
   * (GradingRequest.production.status says so). Unset, or an archive stored apart: created
   * 'received', and the dispatch moves it on once the archive is stored.
   */
  readonly startsAs?: 'queued' | 'grading';
}
export const GRADING_DISPATCH = Symbol('GradingDispatch');

/**
 * Admission of submissions into one process: under overload a submission is refused before
 * anything is stored (503 + Retry-After, DomainError 'unavailable') instead of queueing without
 * bound. Logins and reads never pass through it, so they are not starved by a submission backlog.
 */
export interface SubmissionAdmission {
  /**
   * Admits one submission (of `tenant`, the student, when the gate bounds each one's share) or
   * throws DomainError('unavailable') with a Retry-After.
   */
  enter(tenant?: string): AdmissionTicket;
}
export interface AdmissionTicket {
  /** The submission is answered (graded, queued, refused or failed): its place is free again. */
  release(): void;
}
export const SUBMISSION_ADMISSION = Symbol('SubmissionAdmission');
/** The same gate for password checks (spec admission.maxLoginsInFlight / maxLoginWaitS): a login beyond it gets 503 + Retry-After. */
export type LoginAdmission = SubmissionAdmission;
/** One per process (a DI singleton): it counts every password check the process runs. Unbound: logins are not bounded. */
export const LOGIN_ADMISSION = Symbol('LoginAdmission');

/** No bound: every submission is admitted (the papers' systems). */
export const admitEverything: SubmissionAdmission = { enter: () => ({ release: () => undefined }) };
