/**
 * Nest wiring of the RabbitMQ dispatch for a composition root: the process's connection,
 * the publisher (GRADING_DISPATCH, via `RabbitMqDispatchModule.dispatchProvider()` handed to
 * GradingCoreModule) and, unless SG_BROKER_CONSUME=false, the work-queue consumer.
 */
import {
  Global,
  Inject,
  Injectable,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import {
  ARCHIVE_STORE,
  GRADING_DISPATCH,
  GradingWorker,
  PRODUCTION_REPOSITORY,
  type ArchiveStore,
  type ProductionRepository,
} from '@shellgrade/domain';
import type { RuntimeConfig } from '@shellgrade/variant';
import { loadRabbitMqConfig } from './rabbitmq-config';
import { RabbitMqConnection } from './rabbitmq-connection';
import { RabbitMqConsumer } from './rabbitmq-consumer';
import { RabbitMqDispatch } from './rabbitmq-dispatch';

const CONSUMER = Symbol('RabbitMqConsumer');
const CONNECT_TIMEOUT_MS = 30_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not ready after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
class RabbitMqLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(RabbitMqConnection) private readonly connection: RabbitMqConnection,
    @Inject(RabbitMqDispatch) private readonly dispatch: RabbitMqDispatch,
    @Optional() @Inject(CONSUMER) private readonly consumer: RabbitMqConsumer | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await within(this.dispatch.ready(), CONNECT_TIMEOUT_MS, `RabbitMQ at ${this.connection.topology.work}`);
    if (this.consumer) await within(this.consumer.ready(), CONNECT_TIMEOUT_MS, 'RabbitMQ consumer');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
    await this.dispatch.close();
    await this.connection.close();
  }
}

@Global()
@Module({})
export class RabbitMqDispatchModule {
  static forRoot(cfg: Pick<RuntimeConfig, 'AMQP_URL' | 'SG_REPLY'>, env: NodeJS.ProcessEnv = process.env): DynamicModule {
    const broker = loadRabbitMqConfig(env);
    const providers: Provider[] = [
      {
        provide: RabbitMqConnection,
        useFactory: () =>
          new RabbitMqConnection({
            url: cfg.AMQP_URL,
            queue: broker.SG_BROKER_QUEUE,
            maxLength: broker.SG_BROKER_QUEUE_BOUND,
            deliveryLimit: broker.SG_BROKER_RETRIES,
          }),
      },
      {
        provide: RabbitMqDispatch,
        inject: [RabbitMqConnection, PRODUCTION_REPOSITORY, ARCHIVE_STORE],
        useFactory: (connection: RabbitMqConnection, productions: ProductionRepository, archives: ArchiveStore) =>
          new RabbitMqDispatch(connection, productions, archives, {
            queue: broker.SG_BROKER_QUEUE,
            reply: cfg.SG_REPLY,
            replyTimeoutMs: broker.SG_BROKER_REPLY_TIMEOUT_MS,
            publishTimeoutMs: broker.SG_BROKER_PUBLISH_TIMEOUT_MS,
            retryAfterSeconds: broker.SG_BROKER_RETRY_AFTER_S,
          }),
      },
      {
        provide: CONSUMER,
        inject: [RabbitMqConnection, GradingWorker, PRODUCTION_REPOSITORY],
        useFactory: (connection: RabbitMqConnection, worker: GradingWorker, productions: ProductionRepository) =>
          broker.SG_BROKER_CONSUME
            ? new RabbitMqConsumer(connection, worker, productions, {
                prefetch: broker.SG_BROKER_PREFETCH,
                retries: broker.SG_BROKER_RETRIES,
                retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
              })
            : null,
      },
      RabbitMqLifecycle,
    ];
    return { module: RabbitMqDispatchModule, providers, exports: [RabbitMqDispatch] };
  }

  /** GRADING_DISPATCH for GradingCoreModule.forRoot(cfg, <this>). */
  static dispatchProvider(): Provider {
    return { provide: GRADING_DISPATCH, useExisting: RabbitMqDispatch };
  }
}
