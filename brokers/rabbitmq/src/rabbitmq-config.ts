/**
 * Broker tunables of the RabbitMQ dispatch, read from the environment next to the
 * runtime config (the variant spec sets them; defaults suit a developer's loopback run).
 */
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const rabbitMqConfigSchema = z.object({
  /** Work queue name; the dead-letter exchange/queue are derived from it. */
  SG_BROKER_QUEUE: z.string().min(1).default('sg.grading'),
  /** Unacked messages per consumer: the grading concurrency of one replica. */
  SG_BROKER_PREFETCH: z.coerce.number().int().min(1).default(4),
  /** Bound of the work queue (x-max-length); publishes beyond it are refused → 503. */
  SG_BROKER_QUEUE_BOUND: z.coerce.number().int().min(1).default(1000),
  /** Redeliveries after the first attempt before a message is dead-lettered (x-delivery-limit). */
  SG_BROKER_RETRIES: z.coerce.number().int().min(0).default(3),
  /** Base of the exponential delay before a failed message is handed back to the queue. */
  SG_BROKER_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(500),
  /** How long a sync SPS waits for its grading before answering 202 with the production as it stands. */
  SG_BROKER_REPLY_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long a publish may wait for the broker's confirm (reconnection included). */
  SG_BROKER_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Retry-After (seconds) of the 503 answered when the queue is full or the broker is down. */
  SG_BROKER_RETRY_AFTER_S: z.coerce.number().int().min(1).default(5),
  /** Whether this process consumes the work queue (every exercise replica does by default). */
  SG_BROKER_CONSUME: bool.default(true),
});

export type RabbitMqConfig = z.infer<typeof rabbitMqConfigSchema>;

export function loadRabbitMqConfig(env: NodeJS.ProcessEnv = process.env): RabbitMqConfig {
  // SG_BROKER_MAX_QUEUE: older name of SG_BROKER_QUEUE_BOUND, still accepted.
  const parsed = rabbitMqConfigSchema.safeParse({ SG_BROKER_QUEUE_BOUND: env.SG_BROKER_MAX_QUEUE, ...env });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid RabbitMQ broker configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
