/**
 * What travels between the filters of dispatch: pipeline: the production id, and once it is
 * known its outcome (the grade and feedback, or why it failed) on its way to the record filter.
 * The archive stays in the ArchiveStore; the trace context rides in the message headers.
 */
import { z } from 'zod';

/** The filters in the order a submission goes through them (the spec's `pipeline` section names the same). */
export const PIPELINE_FILTERS = ['check', 'grade', 'record'] as const;
export type PipelineFilterName = (typeof PIPELINE_FILTERS)[number];

const feedbackItemSchema = z.object({
  numQ: z.number(),
  verif: z.string(),
  status: z.enum(['OK', 'NOT OK', 'not tested']),
  expl: z.string(),
});

export const productionOutcomeSchema = z.union([
  z.object({ grade: z.number(), comment: z.array(feedbackItemSchema) }),
  z.object({ failureReason: z.string().min(1) }),
]);

export const pipelineMessageSchema = z.object({
  productionId: z.number().int().positive(),
  /** Set by the filter that settled the outcome; the record filter stores it. */
  outcome: productionOutcomeSchema.optional(),
  /** When the answer is due (epoch ms; absent: no deadline): a filter that takes the message later sends it to record as expired. */
  deadline: z.number().int().positive().optional(),
});
export type PipelineMessage = z.infer<typeof pipelineMessageSchema>;

/** The queue a filter consumes: `<prefix>.<filter>` (prefix: the spec's broker.queue). */
export const filterQueue = (prefix: string, filter: PipelineFilterName) => `${prefix}.${filter}`;
