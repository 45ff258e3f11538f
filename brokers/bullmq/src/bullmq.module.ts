/**
 * Nest wiring of the BullMQ dispatch for a composition root: the process's shared Redis
 * connection, queue and queue events, the publisher (GRADING_DISPATCH, via
 * `BullMqDispatchModule.dispatchProvider()` handed to GradingCoreModule) and, unless
 * SG_BROKER_CONSUME=false, the worker.
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
import { assertGraderExecAllowed, loadBullMqConfig } from './bullmq-config';
import { BullMqConnection } from './bullmq-connection';
import { BullMqDispatch } from './bullmq-dispatch';
import { BullMqGradingWorker } from './bullmq-worker';

const WORKER = Symbol('BullMqGradingWorker');

@Injectable()
class BullMqLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(BullMqConnection) private readonly connection: BullMqConnection,
    @Optional() @Inject(WORKER) private readonly worker: BullMqGradingWorker | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.connection.ready();
    await this.worker?.ready();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection.close();
  }
}

@Global()
@Module({})
export class BullMqDispatchModule {
  static forRoot(
    cfg: Pick<RuntimeConfig, 'REDIS_URL' | 'SG_REPLY' | 'SG_GRADER_EXEC'>,
    env: NodeJS.ProcessEnv = process.env,
  ): DynamicModule {
    assertGraderExecAllowed(cfg.SG_GRADER_EXEC);
    const broker = loadBullMqConfig(env);
    const providers: Provider[] = [
      {
        provide: BullMqConnection,
        useFactory: () =>
          new BullMqConnection({
            url: cfg.REDIS_URL,
            queue: broker.SG_BROKER_QUEUE,
            retries: broker.SG_BROKER_RETRIES,
            retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
            keepCompleted: broker.SG_BROKER_KEEP_COMPLETED,
            keepFailed: broker.SG_BROKER_KEEP_FAILED,
          }),
      },
      {
        provide: BullMqDispatch,
        inject: [BullMqConnection, PRODUCTION_REPOSITORY, ARCHIVE_STORE],
        useFactory: (connection: BullMqConnection, productions: ProductionRepository, archives: ArchiveStore) =>
          new BullMqDispatch(connection, productions, archives, {
            reply: cfg.SG_REPLY,
            maxWaiting: broker.SG_BROKER_QUEUE_BOUND,
            replyTimeoutMs: broker.SG_BROKER_REPLY_TIMEOUT_MS,
            publishTimeoutMs: broker.SG_BROKER_PUBLISH_TIMEOUT_MS,
            retryAfterSeconds: broker.SG_BROKER_RETRY_AFTER_S,
          }),
      },
      {
        provide: WORKER,
        inject: [BullMqConnection, GradingWorker, PRODUCTION_REPOSITORY],
        useFactory: (connection: BullMqConnection, grading: GradingWorker, productions: ProductionRepository) =>
          broker.SG_BROKER_CONSUME
            ? new BullMqGradingWorker(connection, grading, productions, {
                concurrency: broker.SG_BROKER_PREFETCH,
                lockMs: broker.SG_BROKER_LOCK_MS,
                stalledIntervalMs: broker.SG_BROKER_STALLED_INTERVAL_MS,
                maxStalled: broker.SG_BROKER_MAX_STALLED,
                sweepFailed: broker.SG_BROKER_KEEP_FAILED,
              })
            : null,
      },
      BullMqLifecycle,
    ];
    return { module: BullMqDispatchModule, providers, exports: [BullMqDispatch] };
  }

  /** GRADING_DISPATCH for GradingCoreModule.forRoot(cfg, <this>). */
  static dispatchProvider(): Provider {
    return { provide: GRADING_DISPATCH, useExisting: BullMqDispatch };
  }
}
