/**
 * The reply a sync requester waits for over RabbitMQ's direct reply-to (the grading message
 * itself is @shellgrade/dispatch's), and the JSON body codec of both.
 */
import { z } from 'zod';

/** Sent back to a sync requester once the outcome is stored; it then reads the production. */
export const gradingReplySchema = z.object({ productionId: z.number().int().positive(), status: z.string() });
export type GradingReply = z.infer<typeof gradingReplySchema>;

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
