/**
 * The port a queue dispatch publishes through: what differs between brokers and nothing else.
 * QueueDispatch (queue-dispatch.ts) holds the steps every broker shares; a transport says how
 * its broker bounds the queue, carries one grading message, and tells a waiting sync requester
 * that the grading is over (RabbitMQ: a reply on direct reply-to; BullMQ: the job's completion
 * on the queue events). Topology, connections and consumers stay in each broker's adapter.
 */
import type { ExerciseProduction } from '@shellgrade/domain';
import type { GradingMessage } from '@shellgrade/dispatch';
import type { MessageHeaders } from '@shellgrade/telemetry';

export interface QueueTransport {
  /** The broker, as spans and refusals name it ('rabbitmq', 'bullmq'). */
  readonly system: string;
  /** The queue the gradings are published to. */
  readonly queue: string;
  /**
   * Asked before publishing, where the queue's bound is counted by the publisher (BullMQ: waiting
   * jobs); true refuses the submission as queue-full. Absent: the broker refuses at the publish.
   */
  full?(): Promise<boolean>;
  /**
   * Publishes `message` with `headers` (trace context, publish time); resolves once the broker took
   * it (confirmed, added). `replyBy` (epoch ms): a sync requester waits for the outcome until then.
   */
  publish(message: GradingMessage, headers: MessageHeaders, replyBy: number | undefined): Promise<PublishedGrading>;
  /** Whether a failed publish means the broker refused the message for a full queue (else: unavailable). */
  refusedAsFull(error: unknown): boolean;
  /** Resolves once the transport can publish (a channel of its own set up); absent: its connection's readiness is enough. */
  ready?(): Promise<void>;
  /** Releases what the transport holds of its own (waiting requesters answered as things stand, its channel). */
  close?(): Promise<void>;
}

/** A grading the broker took. */
export interface PublishedGrading {
  /**
   * Resolves when the grading is over or the sync wait ran out (at once for an async reply): the
   * production as the worker stored it when the broker carried it back, else undefined (read it).
   */
  outcome(): Promise<ExerciseProduction | undefined>;
}
