/**
 * dispatch: rabbitmq — the process's AMQP connection, the publisher (GRADING_DISPATCH) and,
 * unless broker.consume is false, the work-queue consumer.
 */
import type { Provider } from '@nestjs/common';
import { QueueDispatch } from '@shellgrade/broker-queue';
import { RabbitMqConnection, RabbitMqConsumer, rabbitMqDispatch } from '@shellgrade/broker-rabbitmq';
import { dispatchTimingsOf, within, type BrokerSettings } from '@shellgrade/dispatch';
import { brokerProviders } from './broker-providers';

/** The spec's broker.rabbitmq (libs/variant holds the defaults). */
interface RabbitMqSettings {
  heartbeatS: number;
  reconnectS: number;
  connectTimeoutMs: number;
  closeGraceMs: number;
}

type RabbitMqBroker = BrokerSettings & { rabbitmq: RabbitMqSettings };

/** The process's one AMQP connection, declaring `queue` (dispatch pipeline: its first filter's). */
export function rabbitMqConnectionOf(url: string, broker: RabbitMqBroker, queue = broker.queue): RabbitMqConnection {
  return new RabbitMqConnection({
    url,
    queue,
    maxLength: broker.queueBound,
    deliveryLimit: broker.retries,
    heartbeatSeconds: broker.rabbitmq.heartbeatS,
    reconnectSeconds: broker.rabbitmq.reconnectS,
  });
}

/** `answerBudgetMs`: the spec's answer deadline (admission.answerDeadlineS), carried by every message; unset: none. */
export function rabbitMqDispatchProviders(cfg: { url: string; reply: 'sync' | 'async'; broker: RabbitMqBroker; answerBudgetMs?: number }): Provider[] {
  const { broker } = cfg;
  const { connectTimeoutMs, closeGraceMs } = broker.rabbitmq;
  const notReady = (what: string) => () => new Error(`${what} not ready after ${connectTimeoutMs} ms`);
  return brokerProviders({
    name: 'rabbitmq',
    connection: RabbitMqConnection,
    connect: () => rabbitMqConnectionOf(cfg.url, broker),
    dispatch: QueueDispatch,
    createDispatch: (connection, productions, archives, backlog) =>
      rabbitMqDispatch(connection, productions, archives, { queue: broker.queue, ...dispatchTimingsOf(broker, cfg.reply, cfg.answerBudgetMs), backlog }),
    createConsumer: broker.consume
      ? (connection, worker, productions) =>
          new RabbitMqConsumer(connection, worker, productions, {
            prefetch: broker.prefetch,
            retries: broker.retries,
            retryDelayMs: broker.retryDelayMs,
            closeGraceMs,
          })
      : null,
    start: async ({ connection, dispatch, consumer }) => {
      await within(dispatch.ready(), connectTimeoutMs, notReady(`RabbitMQ at ${connection.topology.work}`));
      if (consumer) await within(consumer.ready(), connectTimeoutMs, notReady('RabbitMQ consumer'));
    },
    stop: async ({ connection, dispatch, consumer }) => {
      await consumer?.close();
      await dispatch.close();
      await connection.close();
    },
  });
}
