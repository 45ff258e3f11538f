import { answerDeadlineOf, type ExerciseProduction, type GradingDispatch, type GradingRequest, type GradingWorker } from '@shellgrade/domain';

/**
 * dispatch: inline — grades in the process that received the submission (the paper's
 * monolith, and its Exercise MS, which receives SPS from the gateway over the http transport
 * and grades them itself). `answerBudgetMs`: how long after its arrival a client still waits
 * for the answer (spec admission.answerDeadlineS); a grading that could only start later is
 * not started (the production ends expired). Unset: every submission is graded (the papers).
 */
export class InlineDispatch implements GradingDispatch {
  /** Graded in this request: created 'grading' when stored whole (GradingDispatch.startsAs), no status update before the sandbox. */
  readonly startsAs = 'grading';

  constructor(
    private readonly worker: GradingWorker,
    private readonly answerBudgetMs?: number,
  ) {}

  dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    const deadline = answerDeadlineOf(req.receivedAt, this.answerBudgetMs);
    return this.worker.grade(req.productionId, { production: req.production, archive: req.archive, context: req.context, deadline });
  }
}
