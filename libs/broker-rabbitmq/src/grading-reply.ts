/**
 * The reply a sync requester waits for over RabbitMQ's direct reply-to (the grading message
 * itself is @shellgrade/dispatch's), and the JSON body codec of both.
 */
import type { ExerciseProduction } from '@shellgrade/domain';
import { z } from 'zod';

/** The final production as the worker stored it (JSON: dates as ISO strings, revived here). */
const finalProductionSchema = z.object({
  id: z.number().int().positive(),
  userId: z.number().int(),
  exerciseId: z.number().int(),
  statementId: z.number().int(),
  status: z.enum(['graded', 'failed']),
  grade: z.number().nullable(),
  comment: z.array(z.object({ numQ: z.number(), verif: z.string(), status: z.enum(['OK', 'NOT OK', 'not tested']), expl: z.string() })),
  failureReason: z.string().nullable(),
  submissionKey: z.string(),
  archiveSize: z.number().int(),
  archiveSha256: z.string(),
  createdAt: z.coerce.date(),
  gradedAt: z.coerce.date().nullable(),
});

/**
 * Sent back to a sync requester once the outcome is stored. It carries the production as stored,
 * so the requester answers without reading it back; without one (a dead-lettered job, an older
 * worker) the requester reads the production.
 */
export const gradingReplySchema = z.object({
  productionId: z.number().int().positive(),
  status: z.string(),
  production: finalProductionSchema.optional(),
});
export type GradingReply = z.infer<typeof gradingReplySchema>;

/** The reply a worker sends for a production it finished: with the production when it has all of it, final. */
export function replyOf(final: Pick<ExerciseProduction, 'id' | 'status'>): GradingReply {
  const whole = finalProductionSchema.safeParse(final);
  return { productionId: final.id, status: final.status, ...(whole.success ? { production: whole.data } : {}) };
}

export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** Parses a message body; null when it is not JSON of the expected shape. */
export function decodeJson<T>(schema: z.ZodType<T>, body: Buffer): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
