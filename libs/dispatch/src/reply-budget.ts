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
