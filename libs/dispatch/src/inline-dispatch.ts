import type { ExerciseProduction, GradingDispatch, GradingRequest, GradingWorker } from '@shellgrade/domain';

/**
 * dispatch: inline — grades in the process that received the submission (the paper's
 * monolith, and its Exercise MS, which receives SPS from the gateway over the http transport
 * and grades them itself).
 */
export class InlineDispatch implements GradingDispatch {
  constructor(private readonly worker: GradingWorker) {}

  dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    return this.worker.grade(req.productionId, req.archive, req.context);
  }
}
