/**
 * Nest wiring of the BullMQ dispatch for a composition root: the process's shared Redis
 * connection, queue and queue events, the publisher (GRADING_DISPATCH, via
 * `BullMqDispatchModule.dispatchProvider()` handed to GradingCoreModule) and, unless
 * SG_BROKER_CONSUME=false, the worker.
 */
import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { brokerModule, dispatchProviderOf, dispatchTimingsOf } from '@shellgrade/dispatch';
import type { RuntimeConfig } from '@shellgrade/variant';
import { assertGraderExecAllowed, loadBullMqConfig } from './bullmq-config';
import { BullMqConnection } from './bullmq-connection';
import { BullMqDispatch } from './bullmq-dispatch';
import { BullMqGradingWorker } from './bullmq-worker';

@Global()
@Module({})
export class BullMqDispatchModule {
  static forRoot(
    cfg: Pick<RuntimeConfig, 'REDIS_URL' | 'SG_REPLY' | 'SG_GRADER_EXEC'>,
    env: NodeJS.ProcessEnv = process.env,
  ): DynamicModule {
    assertGraderExecAllowed(cfg.SG_GRADER_EXEC);
    const broker = loadBullMqConfig(env);
    return brokerModule({
      module: BullMqDispatchModule,
      connection: BullMqConnection,
      connect: () =>
        new BullMqConnection({
          url: cfg.REDIS_URL,
          queue: broker.SG_BROKER_QUEUE,
          retries: broker.SG_BROKER_RETRIES,
          retryDelayMs: broker.SG_BROKER_RETRY_DELAY_MS,
          keepCompleted: broker.SG_BROKER_KEEP_COMPLETED,
          keepFailed: broker.SG_BROKER_KEEP_FAILED,
        }),
      dispatch: BullMqDispatch,
      createDispatch: (connection, productions, archives) =>
        new BullMqDispatch(connection, productions, archives, {
          maxWaiting: broker.SG_BROKER_QUEUE_BOUND,
          ...dispatchTimingsOf(broker, cfg.SG_REPLY),
        }),
      createConsumer: broker.SG_BROKER_CONSUME
        ? (connection, grading, productions) =>
            new BullMqGradingWorker(connection, grading, productions, {
              concurrency: broker.SG_BROKER_PREFETCH,
              lockMs: broker.SG_BROKER_LOCK_MS,
              stalledIntervalMs: broker.SG_BROKER_STALLED_INTERVAL_MS,
              maxStalled: broker.SG_BROKER_MAX_STALLED,
              sweepFailed: broker.SG_BROKER_KEEP_FAILED,
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

  /** GRADING_DISPATCH for GradingCoreModule.forRoot(cfg, <this>). */
  static dispatchProvider(): Provider {
    return dispatchProviderOf(BullMqDispatch);
  }
}
