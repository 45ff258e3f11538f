/**
 * What travels through a broker: the production id, and when its answer is due (epoch ms,
 * absent: no deadline) so that every queue hand-over can drop a grading whose client stopped
 * waiting. The archive stays in the ArchiveStore (the worker loads and
 * verifies it); the trace context and publish time travel next to it (message headers, job data).
 */
import { z } from 'zod';

export const gradingMessageSchema = z.object({ productionId: z.number().int().positive(), deadline: z.number().int().positive().optional() });
export type GradingMessage = z.infer<typeof gradingMessageSchema>;

/** Message/job id of a production: one id per production, whatever the redeliveries (BullMQ dedups on it). */
export const messageIdOf = (productionId: number) => `production-${productionId}`;

const MESSAGE_ID = /^production-(\d+)$/;

/** The production a message/job id names; null for any other id. */
export function productionIdOfMessageId(id: string | undefined): number | null {
  const m = id ? MESSAGE_ID.exec(id) : null;
  return m ? Number(m[1]) : null;
}

/**
 * How long a sync reply may still wait for its grading: the reply timeout counts from when the
 * request entered the system (gateway or service), so time queued before the dispatch (a busy
 * proxy, the database) is not added on top and the answer stays inside the callers' timeouts.
 */
export function replyWaitMs(replyTimeoutMs: number, receivedAt: number | undefined, now = Date.now()): number {
  if (receivedAt === undefined || !Number.isFinite(receivedAt)) return replyTimeoutMs;
  const spent = Math.min(Math.max(now - receivedAt, 0), replyTimeoutMs);
  return replyTimeoutMs - spent;
}
