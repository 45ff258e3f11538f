/**
 * The grading use case, written once for every variant and apart from the submission's
 * (submission.ts stores what this grades): whichever dispatch delivered the production — in
 * process, a broker's consumer, the interrupted-gradings sweep — the same worker reads it,
 * grades it and stores the outcome. The rules both sides apply are answer-deadline.ts and
 * archive-integrity.ts.
 */
import type { ExerciseProduction } from './entities';
import { DomainError, notFound } from './errors';
import type { ArchiveStore, Grader, GradingJob, LoadedForGrading, ProductionRepository, SubmissionContext, SubmissionContextReader } from './ports';
import { expiredOutcome } from './answer-deadline';
import { verifiedArchive } from './archive-integrity';

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
  /** Epoch ms after which the client no longer waits: the grading is not started then (answerDeadlineOf, answer-deadline.ts). */
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
      // Taken, or created grading by the inline dispatch that hands it over: already says so.
      if (!stored.taken && production.status !== 'grading') await this.productions.setStatus(productionId, 'grading');
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
