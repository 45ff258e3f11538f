/**
 * Nest wiring of the RabbitMQ dispatch for a composition root: the process's connection,
 * the publisher (GRADING_DISPATCH, via `RabbitMqDispatchModule.dispatchProvider()` handed to
 * GradingCoreModule) and, unless SG_BROKER_CONSUME=false, the work-queue consumer.
 */
import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { brokerModule, dispatchProviderOf, dispatchTimingsOf, within } from '@shellgrade/dispatch';
import type { RuntimeConfig } from '@shellgrade/variant';
import { loadRabbitMqConfig } from './rabbitmq-config';
import { RabbitMqConnection } from './rabbitmq-connection';
import { RabbitMqConsumer } from './rabbitmq-consumer';
import { RabbitMqDispatch } from './rabbitmq-dispatch';

const CONNECT_TIMEOUT_MS = 30_000;

const notReady = (what: string) => () => new Error(`${what} not ready after ${CONNECT_TIMEOUT_MS} ms`);

@Global()
@Module({})
export class RabbitMqDispatchModule {
  static forRoot(cfg: Pick<RuntimeConfig, 'AMQP_URL' | 'SG_REPLY'>, env: NodeJS.ProcessEnv = process.env): DynamicModule {
    const broker = loadRabbitMqConfig(env);
    return brokerModule({
      module: RabbitMqDispatchModule,
      connection: RabbitMqConnection,
      connect: () =>
        new RabbitMqConnection({
          url: cfg.AMQP_URL,
          queue: broker.SG_BROKER_QUEUE,
          maxLength: broker.SG_BROKER_QUEUE_BOUND,
          deliveryLimit: broker.SG_BROKER_RETRIES,
        }),
      dispatch: RabbitMqDispatch,
      createDispatch: (connection, productions, archives) =>
        new RabbitMqDispatch(connection, productions, archives, {
          queue: broker.SG_BROKER_QUEUE,
          ...dispatchTimingsOf(broker, cfg.SG_REPLY),
        }),
      createConsumer: broker.SG_BROKER_CONSUME
        ? (connection, worker, productions) =>
            new RabbitMqConsumer(connection, worker, productions, {
              prefetch: broker.SG_BROKER_PREFETCH,
              retries: broker.SG_BROKER_RETRIES,
              retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
            })
        : null,
      start: async ({ connection, dispatch, consumer }) => {
        await within(dispatch.ready(), CONNECT_TIMEOUT_MS, notReady(`RabbitMQ at ${connection.topology.work}`));
        if (consumer) await within(consumer.ready(), CONNECT_TIMEOUT_MS, notReady('RabbitMQ consumer'));
      },
      stop: async ({ connection, dispatch, consumer }) => {
        await consumer?.close();
        await dispatch.close();
        await connection.close();
      },
    });
  }

  /** GRADING_DISPATCH for GradingCoreModule.forRoot(cfg, <this>). */
  static dispatchProvider(): Provider {
    return dispatchProviderOf(RabbitMqDispatch);
  }
}
