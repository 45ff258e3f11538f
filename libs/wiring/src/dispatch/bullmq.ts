/**
 * dispatch: bullmq — the process's shared Redis connection, queue and queue events, the
 * publisher (GRADING_DISPATCH) and, unless broker.consume is false, the worker.
 */
import type { Provider } from '@nestjs/common';
import { BullMqConnection, BullMqConsumer, bullMqDispatch, type BullMqSettings } from '@shellgrade/broker-bullmq';
import { QueueDispatch } from '@shellgrade/broker-queue';
import { dispatchTimingsOf } from '@shellgrade/dispatch';
import { brokerProviders } from './broker-providers';

/** `answerBudgetMs`: the spec's answer deadline (admission.answerDeadlineS), carried by every job; unset: none. */
export function bullMqDispatchProviders(cfg: { url: string; reply: 'sync' | 'async'; broker: BullMqSettings; answerBudgetMs?: number }): Provider[] {
  const { broker } = cfg;
  return brokerProviders({
    name: 'bullmq',
    connection: BullMqConnection,
    connect: () =>
      new BullMqConnection({
        url: cfg.url,
        queue: broker.queue,
        retries: broker.retries,
        retryDelayMs: broker.retryDelayMs,
        keepCompleted: broker.bullmq.keepCompleted,
        keepFailed: broker.bullmq.keepFailed,
      }),
    dispatch: QueueDispatch,
    createDispatch: (connection, productions, archives, backlog) =>
      bullMqDispatch(connection, productions, archives, { maxWaiting: broker.queueBound, ...dispatchTimingsOf(broker, cfg.reply, cfg.answerBudgetMs), backlog }),
    createConsumer: broker.consume
      ? (connection, grading, productions) =>
          new BullMqConsumer(connection, grading, productions, {
            concurrency: broker.prefetch,
            lockMs: broker.bullmq.lockMs,
            stalledIntervalMs: broker.bullmq.stalledIntervalMs,
            maxStalled: broker.bullmq.maxStalled,
            sweepFailed: broker.bullmq.keepFailed,
          })
      : null,
    start: async ({ connection, consumer }) => {
      await connection.ready();
      await consumer?.ready();
    },
    stop: async ({ connection, consumer }) => {
      await consumer?.close();
      await connection.close();
    },
  });
}
