/**
 * The SG_BROKER_* tunables every broker dispatch reads from the environment (the variant spec
 * sets them; defaults suit a developer's loopback run). Each broker builds its schema from
 * these and adds its queue-name rule and its own settings.
 */
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const brokerTunables = {
  /** Messages/jobs one replica grades at once (RabbitMQ prefetch, BullMQ worker concurrency). */
  SG_BROKER_PREFETCH: z.coerce.number().int().min(1).default(4),
  /** Bound of the queue; a submission beyond it is refused → 503. */
  SG_BROKER_QUEUE_BOUND: z.coerce.number().int().min(1).default(1000),
  /** Retries after the first attempt before a message is given up (dead-lettered / failed set). */
  SG_BROKER_RETRIES: z.coerce.number().int().min(0).default(3),
  /** Base of the exponential delay between attempts. */
  SG_BROKER_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(500),
  /** How long a sync SPS waits for its grading before answering 202 with the production as it stands. */
  SG_BROKER_REPLY_TIMEOUT_MS: z.coerce.number().int().min(1).default(50_000),
  /** How long a publish may wait for the broker (reconnection included) before the submission is refused. */
  SG_BROKER_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Retry-After (seconds) of the 503 answered when the queue is full or the broker is down. */
  SG_BROKER_RETRY_AFTER_S: z.coerce.number().int().min(1).default(5),
  /** Whether this process consumes the queue (every exercise replica does by default). */
  SG_BROKER_CONSUME: bool.default(true),
};

export type BrokerTunables = z.output<z.ZodObject<typeof brokerTunables>>;

/** Parses `env` with a broker's schema; the error names every bad variable. */
export function loadBrokerConfig<S extends z.ZodType>(schema: S, broker: string, env: NodeJS.ProcessEnv): z.output<S> {
  // SG_BROKER_MAX_QUEUE: older name of SG_BROKER_QUEUE_BOUND, still accepted.
  const parsed = schema.safeParse({ SG_BROKER_QUEUE_BOUND: env.SG_BROKER_MAX_QUEUE, ...env });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid ${broker} broker configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
