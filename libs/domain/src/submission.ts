/**
 * The student production submission (SPS) use case, written once for every variant:
 * check the statement, validate the archive, persist the production and its archive,
 * hand it to the configured dispatch. Grading itself is GradingWorker's job (grading-worker.ts);
 * the rules both sides apply are answer-deadline.ts and archive-integrity.ts.
 */
import { randomUUID } from 'node:crypto';
import type { ExerciseProduction } from './entities';
import { DomainError, forbidden } from './errors';
import { admitEverything } from './ports';
import type {
  ArchiveStore,
  ArchiveValidator,
  GradingDispatch,
  ProductionRepository,
  SubmissionAdmission,
  SubmissionContext,
  SubmissionContextReader,
} from './ports';
import { isExpired } from './answer-deadline';
import { sha256Hex } from './archive-integrity';

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
        // Stored whole in this one statement: a broker's production is queued from the start, an inline one grading.
        status: (withArchive && this.dispatch.startsAs) || 'received',
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
