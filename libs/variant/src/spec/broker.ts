// The broker section (dispatch rabbitmq, bullmq, pipeline): the work queue, its bound and retries,
// each broker's own settings, and the pipeline's filters.
import { z } from 'zod';
import { millis, nonNegativeInt, positiveInt, replicaCount } from './values';

/** BullMQ's own job-lock and retention settings (dispatch: bullmq). */
export const bullMqSchema = z.strictObject({
  /** Job lock; renewed every half of it by the worker (grading runs in a child process). */
  lockMs: positiveInt().min(1_000).default(30_000),
  /** How often workers look for jobs whose lock expired (their worker died). */
  stalledIntervalMs: positiveInt().min(1_000).default(30_000),
  /** Stalls (worker deaths mid-job) a job survives before it is failed. */
  maxStalled: positiveInt().default(2),
  /** Finished jobs kept in Redis (bounded retention); the failed set is swept at start-up up to keepFailed. */
  keepCompleted: nonNegativeInt('a non-negative integer').default(1_000),
  keepFailed: nonNegativeInt('a non-negative integer').default(5_000),
});

/** The AMQP connection's own settings (dispatch: rabbitmq). */
export const rabbitMqSchema = z.strictObject({
  /** Seconds between heartbeats; a dead broker is noticed within about two of them. */
  heartbeatS: positiveInt('a positive number of seconds').default(5),
  /** Seconds between reconnection attempts after the broker went away. */
  reconnectS: positiveInt('a positive number of seconds').default(1),
  /** How long a starting process waits for the broker (publisher and consumer ready) before it fails. */
  connectTimeoutMs: millis.default(30_000),
  /** At shutdown, how long the consumer lets in-flight gradings finish (below the process manager's kill timeout). */
  closeGraceMs: millis.default(10_000),
});

export const brokerSchema = z.strictObject({
  /** Work queue name; unset = the broker's own (rabbitmq: sg.grading, bullmq: sg-grading; BullMQ forbids ':'). Pipeline: the prefix of its filters' queues (sg.pipeline). */
  queue: z.string().min(1).regex(/^[^:]+$/, { error: "expected a queue name without ':'" }).optional(),
  /** Unacknowledged jobs one consumer holds (RabbitMQ prefetch / BullMQ worker concurrency). */
  prefetch: positiveInt().default(1),
  /** In-flight jobs above which the gateway sheds with 503 + Retry-After. */
  queueBound: positiveInt().default(1000),
  /** Deliveries of a failing job before it is dead-lettered. */
  retries: nonNegativeInt('a non-negative integer').max(100).default(3),
  /** Pause before a failed job is delivered again (base of an exponential backoff). */
  retryDelayMs: nonNegativeInt('a non-negative number of milliseconds').default(500),
  /**
   * How long a sync reply waits for the job's result, counted from the request's arrival, before
   * answering 202 (graded later, poll). As long as the callers allow (proxies and k6: 60 s) minus
   * a margin: answering earlier only withholds feedback that was about to come.
   */
  replyTimeoutMs: millis.default(50_000),
  /** How long a publish may wait for the broker (reconnection included) before the submission is refused. */
  publishTimeoutMs: millis.default(10_000),
  /** Retry-After (seconds) of the 503 answered when the queue is full or the broker is down. */
  retryAfterS: positiveInt().default(5),
  /** Whether the exercise replicas consume the queue (false: publish only, e.g. to watch the bound). */
  consume: z.boolean({ error: 'expected true or false' }).default(true),
  bullmq: bullMqSchema.prefault({}),
  rabbitmq: rabbitMqSchema.prefault({}),
});

/** The filters of dispatch: pipeline, in the order a submission goes through them (libs/pipeline-filters). */
export const pipelineFilters = ['check', 'grade', 'record'] as const;
export type PipelineFilter = (typeof pipelineFilters)[number];

/** One filter's workers: how many messages each holds and how many exercise replicas run one. */
const pipelineFilterSchema = (prefetch: number) =>
  z.strictObject({
    /** Messages one worker of this filter holds at once (its RabbitMQ prefetch). */
    prefetch: positiveInt().default(prefetch),
    /** Exercise replicas that run a worker of this filter (replicas 0..n-1); unset: every one. Scales the filter apart from the others. */
    replicas: replicaCount.optional(),
  });

/**
 * dispatch: pipeline — each filter consumes its own queue (<broker.queue>.<filter>) and passes
 * the production on to the next; broker.queueBound, retries, retryDelayMs and the reply
 * timeouts apply to every filter's queue (broker.prefetch does not: each filter has its own).
 */
export const pipelineSchema = z.strictObject({
  /** Re-reads the stored archive, checks its digest and bounds before it takes a sandbox: cheap, 4 at once. */
  check: pipelineFilterSchema(4).prefault({}),
  /** Runs the sandboxed grader: 1 at once per replica, as broker.prefetch in the rabbitmq presets. */
  grade: pipelineFilterSchema(1).prefault({}),
  /** Stores the outcome (grade or failure) and answers a sync requester: one database write, 8 at once. */
  record: pipelineFilterSchema(8).prefault({}),
});
