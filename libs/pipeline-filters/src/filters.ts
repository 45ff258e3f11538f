/**
 * The grading path as three small filters (paper 003, pipes and filters). Each takes one
 * message and says what becomes of it; none knows the queues between them (libs/broker-rabbitmq
 * pipeline-workers.ts connects them). A production arrives persisted (SubmissionService stored
 * the row and the archive before the dispatch):
 *
 *   check  — reads the stored archive back (the store verifies its digest) and checks its
 *            bounds again, before it takes a sandbox;
 *   grade  — runs the sandboxed grader on it;
 *   record — stores the outcome once, the only filter that makes a production final.
 *
 * At each hand-over (check, grade) a production whose answer deadline passed goes straight to
 * record as expired: no sandbox is started for a client that stopped waiting.
 *
 * Every filter is idempotent: a production already final is passed straight to `done` (a
 * redelivery changes nothing), a deleted one is `gone`. A DomainError other than 'unavailable'
 * (a corrupt archive, a failed grading) is the student's outcome and travels to record as a
 * failure reason; anything else is thrown so that the queue retries the message.
 */
import {
  DomainError,
  expiredOutcome,
  gradingJobOf,
  type ArchiveStore,
  type ArchiveValidator,
  type ExerciseProduction,
  type Grader,
  type ProductionOutcome,
  type ProductionRepository,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import type { PipelineFilterName, PipelineMessage } from './pipeline-message';

export type FilterResult =
  /** Pass the message on to the next filter. */
  | { next: PipelineFilterName; message: PipelineMessage }
  /** The production is final (now or already): tell the requester. */
  | { done: ExerciseProduction }
  /** The production no longer exists (refused publish, reset between runs): nothing to do. */
  | { gone: true };

export type Filter = (message: PipelineMessage) => Promise<FilterResult>;

export interface FilterDeps {
  context: SubmissionContextReader;
  productions: ProductionRepository;
  archives: ArchiveStore;
  validator: ArchiveValidator;
  grader: Grader;
  /** The clock the answer deadline is read against (tests); Date.now by default. */
  nowMs?: () => number;
}

const isFinal = (p: ExerciseProduction) => p.status === 'graded' || p.status === 'failed';

/** A DomainError the student should read (not a transient 'unavailable'), as a failure outcome; otherwise rethrown. */
function studentFailure(error: unknown): ProductionOutcome {
  if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
  return { failureReason: `${error.kind}: ${error.message}` };
}

/** The production, or what to answer when there is nothing left to do for it. */
async function pending(productions: ProductionRepository, productionId: number): Promise<ExerciseProduction | FilterResult> {
  const production = await productions.findById(productionId);
  if (!production) return { gone: true };
  if (isFinal(production)) return { done: production };
  return production;
}

const settled = (x: ExerciseProduction | FilterResult): x is FilterResult => 'gone' in x || 'done' in x || 'next' in x;

/** To record as expired when the message's answer deadline has passed, else null. */
function expiredAtHandOver({ productionId, deadline }: PipelineMessage, nowMs: () => number = Date.now): FilterResult | null {
  const outcome = expiredOutcome(deadline, nowMs());
  return outcome ? { next: 'record', message: { productionId, outcome } } : null;
}

export function checkFilter(deps: Pick<FilterDeps, 'productions' | 'archives' | 'validator' | 'nowMs'>): Filter {
  return async (message) => {
    const { productionId, deadline } = message;
    const production = await pending(deps.productions, productionId);
    if (settled(production)) return production;
    const expired = expiredAtHandOver(message, deps.nowMs);
    if (expired) return expired;
    try {
      await deps.validator.validate(await deps.archives.get(productionId));
      return { next: 'grade', message: { productionId, deadline } };
    } catch (error) {
      return { next: 'record', message: { productionId, outcome: studentFailure(error) } };
    }
  };
}

export function gradeFilter(deps: Pick<FilterDeps, 'context' | 'productions' | 'archives' | 'grader' | 'nowMs'>): Filter {
  return async (message) => {
    const { productionId } = message;
    const production = await pending(deps.productions, productionId);
    if (settled(production)) return production;
    const context = await deps.context.load(production.userId, production.statementId, production.exerciseId);
    let outcome: ProductionOutcome;
    try {
      const submission = await deps.archives.get(productionId);
      // Last look before the sandbox starts.
      const expired = expiredAtHandOver(message, deps.nowMs);
      if (expired) return expired;
      await deps.productions.setStatus(productionId, 'grading');
      outcome = await deps.grader.grade(gradingJobOf(context, productionId, submission));
    } catch (error) {
      outcome = studentFailure(error);
    }
    return { next: 'record', message: { productionId, outcome } };
  };
}

export function recordFilter(deps: Pick<FilterDeps, 'productions'>): Filter {
  return async ({ productionId, outcome }) => {
    if (!outcome) throw new Error(`production ${productionId} reached the record filter without an outcome`);
    // Stored once: a redelivered outcome finds the production final and changes nothing.
    await deps.productions.complete(productionId, outcome);
    const production = await deps.productions.findById(productionId);
    return production ? { done: production } : { gone: true };
  };
}

/** The three filters over one set of ports, by name. */
export function pipelineFilters(deps: FilterDeps): Record<PipelineFilterName, Filter> {
  return { check: checkFilter(deps), grade: gradeFilter(deps), record: recordFilter(deps) };
}
