import type { ExerciseProduction, GradingDispatch, GradingRequest, GradingWorker } from '@shellgrade/domain';

/**
 * Grades in the process that received the submission (the paper's monolith, and its
 * Exercise MS, which receives SPS through the gateway over REST and grades it itself).
 */
export class InlineDispatch implements GradingDispatch {
  constructor(private readonly worker: GradingWorker) {}

  dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    return this.worker.grade(req.productionId, req.archive, req.context);
  }
}
