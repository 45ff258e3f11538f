/**
 * The student production submission (SPS) use case, written once for every variant:
 * check the statement, validate the archive, persist the production and its archive,
 * hand it to the configured dispatch. Grading itself is GradingWorker's job. At the end of the
 * file, the two rules both sides apply: the answer deadline and the archive's integrity.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ExerciseProduction } from './entities';
import { DomainError, forbidden, notFound } from './errors';
import { admitEverything } from './ports';
import type {
  ProductionOutcome,
  ArchiveStore,
  ArchiveValidator,
  Grader,
  GradingDispatch,
  GradingJob,
  LoadedForGrading,
  ProductionRepository,
  SubmissionAdmission,
  SubmissionContext,
  SubmissionContextReader,
} from './ports';

export interface SubmitCommand {
  userId: number;
  exerciseId: number;
  statementId: number;
  archive: Buffer;
  /** Client idempotency key; a retried submission with the same key returns the first production. */
  submissionKey?: string;
  /** When the request entered the system (epoch ms), for the sync reply's time budget. */
  receivedAt?: number;
}

/** What a composition root may set besides the ports: the clock (tests) and the admission gate (spec.admission; unbound: every submission admitted). */
export interface SubmissionOptions {
  now?: () => Date;
  admission?: SubmissionAdmission;
}

export class SubmissionService {
  constructor(
    private readonly context: SubmissionContextReader,
    private readonly validator: ArchiveValidator,
    private readonly productions: ProductionRepository,
    private readonly archives: ArchiveStore,
    private readonly dispatch: GradingDispatch,
    options: SubmissionOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.admission = options.admission ?? admitEverything;
  }

  private readonly now: () => Date;
  private readonly admission: SubmissionAdmission;

  /** Admission first: an overloaded process refuses before it spends anything on the submission. */
  async submit(cmd: SubmitCommand): Promise<ExerciseProduction> {
    // The student is the tenant: their own backlog waits behind them, not in front of the class.
    const ticket = this.admission.enter(String(cmd.userId));
    try {
      return await this.admitted(cmd);
    } finally {
      ticket.release();
    }
  }

  private async admitted(cmd: SubmitCommand): Promise<ExerciseProduction> {
    const context = await this.context.load(cmd.userId, cmd.statementId, cmd.exerciseId);
    refuseClosedSubmission(context, this.now());
    await this.validator.validate(cmd.archive);

    // An archive kept in the production's row is written with it: no row without its archive.
    const withRow = this.archives.inProductionRow === true;
    const { production, created } = await this.createOnce(cmd, withRow);
    if (!created) return production;

    if (!withRow) await this.storeArchive(production.id, cmd.archive);
    return this.dispatch.dispatch({ productionId: production.id, production, archive: cmd.archive, context, receivedAt: cmd.receivedAt });
  }

  /** The archive stored apart from the row (an object store), after the row. */
  private async storeArchive(productionId: number, archive: Buffer): Promise<void> {
    try {
      await this.archives.put(productionId, archive);
    } catch (error) {
      // Never leave a row pointing at an archive that was not stored.
      await this.productions.delete(productionId).catch(() => undefined);
      throw error instanceof DomainError
        ? error
        : new DomainError('unavailable', 'the archive store is unavailable; nothing was saved', {}, 5);
    }
  }

  /**
   * The production of this submission key: a new one, or the one a previous attempt stored. An
   * attempt that expired (never graded: answer deadline) does not answer a retry with the same
   * key — the client was told to submit again — so the retry becomes the next production of that
   * key (`<key>>after-<id>`; the same retry sent twice still finds the same one).
   */
  private async createOnce(cmd: SubmitCommand, withArchive: boolean): Promise<{ production: ExerciseProduction; created: boolean }> {
    let submissionKey = cmd.submissionKey ?? randomUUID();
    const archiveSha256 = sha256Hex(cmd.archive);
    for (;;) {
      const { production, created } = await this.productions.create({
        userId: cmd.userId,
        exerciseId: cmd.exerciseId,
        statementId: cmd.statementId,
        submissionKey,
        archiveSize: cmd.archive.length,
        archiveSha256,
        // Stored whole in this one statement: a broker's production is queued from the start.
        status: withArchive && this.dispatch.queues ? 'queued' : 'received',
        ...(withArchive ? { archive: cmd.archive } : {}),
      });
      if (created || !isExpired(production)) return { production, created };
      submissionKey = `${submissionKey}>after-${production.id}`;
    }
  }
}

/**
 * A statement is open for submissions while its student is enrolled in its session, the
 * session runs, the deadline has not passed and the exercise is published. Each refusal
 * is a 403 that says which of these failed, before anything is stored.
 */
export function refuseClosedSubmission(context: SubmissionContext, now: Date): void {
  const { statement, exercise, session, enrolled } = context;
  if (!enrolled) throw forbidden(`you are not enrolled in session ${session.id} of statement ${statement.id}`);
  if (exercise.state !== 'published') throw forbidden(`exercise ${exercise.id} is not open for submissions (it is ${exercise.state})`);
  if (now < session.startsAt) throw forbidden(`session ${session.id} opens at ${session.startsAt.toISOString()}`);
  if (now > session.endsAt) throw forbidden(`session ${session.id} closed at ${session.endsAt.toISOString()}`);
  if (statement.deadline && statement.deadline < now) {
    throw forbidden(`the deadline of statement ${statement.id} passed at ${statement.deadline.toISOString()}`);
  }
}

/** What the grader is given for a student's production: the exercise's grader, the student's statement, the archive. */
export function gradingJobOf({ statement, exercise }: Pick<SubmissionContext, 'statement' | 'exercise'>, productionId: number, submission: Buffer): GradingJob {
  return {
    exerciseId: exercise.id,
    productionId,
    graderScript: exercise.graderScript,
    statementHtml: statement.statementHtml,
    questionArchive: statement.questionArchive,
    submission,
    locale: exercise.locale,
  };
}

/** What the dispatcher already holds for a grading, and when its answer is due. */
export interface GradingGiven {
  /** The production as just created (inline dispatch), so it is not read back. */
  production?: ExerciseProduction;
  /** The archive (inline dispatch), so it is not read back. */
  archive?: Buffer;
  /** The statement and exercise (inline dispatch), so they are not read twice. */
  context?: SubmissionContext;
  /** Epoch ms after which the client no longer waits: the grading is not started then (answerDeadlineOf, below). */
  deadline?: number;
}

/** A production as the worker found it; `taken`/`archive` when loadForGrading took it (LoadedForGrading). */
type Stored = { production: ExerciseProduction; context?: SubmissionContext | null } & Pick<LoadedForGrading, 'taken' | 'archive'>;

/**
 * Grades one stored production, idempotently: a production that is already final is
 * returned as is (broker redelivery), and the outcome is stored exactly once. A production
 * whose answer deadline passed before the sandbox could start ends `expired` instead.
 */
export class GradingWorker {
  constructor(
    private readonly context: SubmissionContextReader,
    private readonly productions: ProductionRepository,
    private readonly archives: ArchiveStore,
    private readonly grader: Grader,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async grade(productionId: number, given: GradingGiven = {}): Promise<ExerciseProduction> {
    const stored = await this.storedWithContext(productionId, given);
    if (!stored) throw new DomainError('not-found', `production ${productionId} does not exist`);
    const { production } = stored;
    if (production.status === 'graded' || production.status === 'failed') return production;
    // Taking it found it final after all: another delivery finished it since the row was read.
    if (stored.taken === false) return this.final(productionId, null);

    if (stored.context === null) throw notFound('student statement', production.statementId);
    const { statement, exercise } = stored.context ?? (await this.context.load(production.userId, production.statementId, production.exerciseId));
    try {
      const submission =
        given.archive ??
        (stored.taken ? verifiedArchive(productionId, stored.archive, production.archiveSha256) : await this.archives.get(productionId));
      // Checked last before the sandbox: everything above may have waited (database, archive store).
      const expired = expiredOutcome(given.deadline, this.nowMs());
      if (expired) return await this.final(productionId, await this.productions.complete(productionId, expired));
      if (!stored.taken) await this.productions.setStatus(productionId, 'grading');
      const result = await this.grader.grade(gradingJobOf({ statement, exercise }, productionId, submission));
      return await this.final(productionId, await this.productions.complete(productionId, result));
    } catch (error) {
      // Transient failures (a store or database down) go back to the dispatcher to retry;
      // a corrupt archive or a failed grading is final.
      if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
      return this.final(productionId, await this.productions.complete(productionId, { failureReason: `${error.kind}: ${error.message}` }));
    }
  }

  /**
   * What the grading starts from: handed over in process (inline), else read — with its context
   * in the same round trip where the reader can (a worker behind a broker), and, when the archive
   * is in the production's row, taken for grading with its archive in that round trip too.
   */
  private async storedWithContext(productionId: number, given: GradingGiven): Promise<Stored | null> {
    if (given.production) return { production: given.production, context: given.context };
    if (!given.context && this.context.loadForGrading) {
      return this.context.loadForGrading(productionId, this.archives.inProductionRow && !given.archive ? { take: true } : {});
    }
    const production = await this.productions.findById(productionId);
    return production && { production, context: given.context };
  }

  /** The production as this grading stored it; read back only when another delivery finished it first. */
  private async final(productionId: number, stored: ExerciseProduction | null): Promise<ExerciseProduction> {
    if (stored) return stored;
    const final = await this.productions.findById(productionId);
    if (!final) throw new DomainError('not-found', `production ${productionId} vanished while grading`);
    return final;
  }
}

/**
 * The answer deadline of a submission (issue 31 item 3): the moment its client stops waiting
 * for the feedback (its timeout, counted from when the request entered the system). A grading
 * that would start later is not started — its answer could reach no one, and the sandbox time
 * it would take is what the students still waiting need under overload. The production ends
 * failed with a reason that starts `expired:` (final, counted by the audit; never lost).
 */
/** The prefix of an expired production's failure reason. */
export const EXPIRED = 'expired';

/** When the answer to a request received at `receivedAt` is due; undefined: no deadline (unknown arrival, or none configured). */
export function answerDeadlineOf(receivedAt: number | undefined, budgetMs: number | undefined): number | undefined {
  if (receivedAt === undefined || !Number.isFinite(receivedAt) || budgetMs === undefined) return undefined;
  return receivedAt + budgetMs;
}

/** The outcome of a grading that must not start any more (`now` at or past `deadline`), else null. */
export function expiredOutcome(deadline: number | undefined, now: number): ProductionOutcome | null {
  if (deadline === undefined || now < deadline) return null;
  const late = Math.round((now - deadline) / 100) / 10;
  return { failureReason: `${EXPIRED}: not graded, its client had stopped waiting for the answer ${late} s before a grader was free (deadline ${new Date(deadline).toISOString()})` };
}

/** Whether a final production failed because its answer deadline passed before its grading could start. */
export function isExpired(production: { status: string; failureReason: string | null }): boolean {
  return production.status === 'failed' && (production.failureReason?.startsWith(`${EXPIRED}:`) ?? false);
}

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The archive bytes a production's row holds, proven to be the ones submitted: not-found when
 * none were stored, grading-failed (final: a corrupt archive is never regraded) when they no
 * longer match the sha256 recorded with the row. One rule for every reader of a row's archive
 * (the postgres archive store, a grading worker that read the archive with the row).
 */
export function verifiedArchive(productionId: number, bytes: Buffer | null | undefined, recordedSha256: string): Buffer {
  if (!bytes) throw notFound('archive of exercise production', productionId);
  const expected = recordedSha256.trim();
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new DomainError('grading-failed', `archive of production ${productionId} is corrupt (sha256 mismatch)`, { expected, actual });
  }
  return bytes;
}
