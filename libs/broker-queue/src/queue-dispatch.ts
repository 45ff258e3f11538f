/**
 * GradingDispatch over a work queue, whichever broker carries it. The steps are the same for
 * RabbitMQ and BullMQ, so they are written once: mark the production queued (unless it was
 * created so), publish {productionId, deadline} in a broker.publish span, refuse the submission
 * (503 + Retry-After, libs/refusal) when the queue is full or the broker cannot take it, wait for
 * a sync reply up to what is left of the reply timeout (counted from the request's arrival),
 * and answer with the production as it then stands (202 while still queued; the job completes
 * anyway). How a broker does each step is its QueueTransport (queue-transport.ts).
 */
import {
  answerDeadlineOf,
  DomainError,
  type ArchiveStore,
  type ExerciseProduction,
  type GradingBacklog,
  type GradingDispatch,
  type GradingRequest,
  type ProductionRepository,
} from '@shellgrade/domain';
import { replyWaitMs, type GradingMessage } from '@shellgrade/dispatch';
import { queueWaitOf, refuseSubmission, type RefusalCause } from '@shellgrade/refusal';
import { tracedPublish } from '@shellgrade/telemetry';
import type { PublishedGrading, QueueTransport } from './queue-transport';

export interface QueueDispatchOptions {
  reply: 'sync' | 'async';
  /** How long a sync requester waits for its grading, counted from the request's arrival. */
  replyTimeoutMs: number;
  /** Retry-After of a refusal when the backlog gives no estimate. */
  retryAfterSeconds: number;
  /** The backlog a queue-full refusal tells the student about (its Retry-After: when it should have drained). */
  backlog?: GradingBacklog;
  /** How long after its arrival a client still waits for the answer: the message's deadline (unset: none). */
  answerBudgetMs?: number;
}

export class QueueDispatch<T extends QueueTransport = QueueTransport> implements GradingDispatch {
  /** What it is handed is published to a queue: created 'queued' when stored whole (GradingDispatch.startsAs). */
  readonly startsAs = 'queued';

  constructor(
    readonly transport: T,
    private readonly productions: ProductionRepository,
    private readonly archives: ArchiveStore,
    private readonly options: QueueDispatchOptions,
  ) {}

  async dispatch(req: GradingRequest): Promise<ExerciseProduction> {
    const { productionId } = req;
    const { transport } = this;
    // Created queued when its archive came with the row (GradingDispatch.startsAs): no second write.
    if (req.production?.status !== 'queued') await this.productions.setStatus(productionId, 'queued');
    const message: GradingMessage = { productionId, deadline: answerDeadlineOf(req.receivedAt, this.options.answerBudgetMs) };
    const replyBy = this.options.reply === 'sync' ? replyByOf(this.options.replyTimeoutMs, req.receivedAt) : undefined;
    let published: PublishedGrading;
    try {
      if (await transport.full?.()) throw await this.refuse('queue-full', productionId);
      published = await tracedPublish({ system: transport.system, queue: transport.queue }, (headers) => transport.publish(message, headers, replyBy));
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw await this.refuse(transport.refusedAsFull(error) ? 'queue-full' : 'broker-unavailable', productionId, error);
    }
    // A reply that carries the production as the worker stored it saves reading it back.
    return (await published.outcome()) ?? (await this.current(productionId));
  }

  /** Resolves once the transport can publish; used at bootstrap and by tests. */
  async ready(): Promise<void> {
    await this.transport.ready?.();
  }

  /** Stops publishing: requesters still waiting answer with their production as it stands. */
  async close(): Promise<void> {
    await this.transport.close?.();
  }

  private async refuse(cause: RefusalCause, productionId: number, error?: unknown): Promise<DomainError> {
    return refuseSubmission(cause, productionId, { productions: this.productions, archives: this.archives }, {
      broker: this.transport.system,
      queue: this.transport.queue,
      retryAfterSeconds: this.options.retryAfterSeconds,
      error,
      wait: cause === 'queue-full' ? await queueWaitOf(this.options.backlog, productionId) : null,
    });
  }

  private async current(productionId: number): Promise<ExerciseProduction> {
    const production = await this.productions.findById(productionId);
    if (!production) throw new DomainError('not-found', `production ${productionId} vanished after dispatch`);
    return production;
  }
}

/** When a sync requester stops waiting (epoch ms): the clock read once, so a tick between two reads cannot move the deadline. */
function replyByOf(replyTimeoutMs: number, receivedAt: number | undefined, now = Date.now()): number {
  return now + replyWaitMs(replyTimeoutMs, receivedAt, now);
}
