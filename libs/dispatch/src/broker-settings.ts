/**
 * What a broker dispatch is told, in the spec's own shape (libs/variant's `broker` section,
 * where each field's default and meaning are documented): the adapters read no environment.
 */
export interface BrokerSettings {
  /** Work queue name (dead-letter names are derived from it). */
  queue: string;
  /** Jobs one consumer holds at once (RabbitMQ prefetch, BullMQ worker concurrency). */
  prefetch: number;
  /** Bound of the queue; a submission beyond it is refused → 503. */
  queueBound: number;
  /** Retries after the first attempt before a job is given up (dead-lettered / failed set). */
  retries: number;
  /** Base of the exponential delay between attempts. */
  retryDelayMs: number;
  /** How long a sync SPS waits for its grading before answering 202 with the production as it stands. */
  replyTimeoutMs: number;
  /** How long a publish may wait for the broker before the submission is refused. */
  publishTimeoutMs: number;
  /** Retry-After (seconds) of the 503 answered when the queue is full or the broker is down. */
  retryAfterS: number;
  /** Whether this process consumes the queue. */
  consume: boolean;
}

/**
 * The publisher settings both dispatches take from the broker settings; `answerBudgetMs`: how long
 * after its arrival a client still waits for its answer (spec admission.answerDeadlineS), unset: no deadline.
 */
export function dispatchTimingsOf(broker: BrokerSettings, reply: 'sync' | 'async', answerBudgetMs?: number) {
  return {
    reply,
    answerBudgetMs,
    replyTimeoutMs: broker.replyTimeoutMs,
    publishTimeoutMs: broker.publishTimeoutMs,
    retryAfterSeconds: broker.retryAfterS,
  };
}
