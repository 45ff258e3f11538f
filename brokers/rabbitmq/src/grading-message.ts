/**
 * What travels through the broker: the production id only. The archive stays in the
 * ArchiveStore (the worker loads and verifies it); the trace context and publish time
 * travel in the message headers.
 */
import { z } from 'zod';

export const gradingMessageSchema = z.object({ productionId: z.number().int().positive() });
export type GradingMessage = z.infer<typeof gradingMessageSchema>;

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

/** Message/job id of a production: one id per production, whatever the redeliveries. */
export const messageIdOf = (productionId: number) => `production-${productionId}`;
