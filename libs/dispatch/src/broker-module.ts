/**
 * The Nest wiring both broker modules share: one connection per process, the publisher
 * (exported, and GRADING_DISPATCH via `dispatchProviderOf`), the consumer unless
 * SG_BROKER_CONSUME=false, and the lifecycle that starts and stops them. What "connect",
 * "ready" and "close" mean stays in each broker. Only Nest types are imported here, so this
 * file (and @shellgrade/dispatch) loads without @nestjs/common.
 */
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import {
  ARCHIVE_STORE,
  GRADING_DISPATCH,
  GradingWorker,
  PRODUCTION_REPOSITORY,
  type ArchiveStore,
  type GradingDispatch,
  type ProductionRepository,
} from '@shellgrade/domain';
import type { BrokerTunables } from './broker-config';

/** The parts of one process's broker wiring, as the lifecycle sees them. */
export interface BrokerParts<C, D, W> {
  connection: C;
  dispatch: D;
  /** null when this process does not consume. */
  consumer: W | null;
}

export interface BrokerWiring<C, D extends GradingDispatch, W> {
  /** The Nest module class the wiring is returned for. */
  module: Type<unknown>;
  connection: Type<C>;
  connect: () => C;
  dispatch: Type<D>;
  createDispatch: (connection: C, productions: ProductionRepository, archives: ArchiveStore) => D;
  /** null when this process does not consume (SG_BROKER_CONSUME=false). */
  createConsumer: ((connection: C, grading: GradingWorker, productions: ProductionRepository) => W) | null;
  /** At application bootstrap: resolves once the parts are connected and consuming. */
  start: (parts: BrokerParts<C, D, W>) => Promise<void>;
  /** At application shutdown: stops consuming, then closes the publisher and the connection. */
  stop: (parts: BrokerParts<C, D, W>) => Promise<void>;
}

/** The dynamic module of a broker; exports its dispatch (for `dispatchProviderOf`). */
export function brokerModule<C, D extends GradingDispatch, W>(wiring: BrokerWiring<C, D, W>): DynamicModule {
  const consumer = Symbol(`${wiring.module.name} consumer`);
  const providers: Provider[] = [
    { provide: wiring.connection, useFactory: wiring.connect },
    {
      provide: wiring.dispatch,
      inject: [wiring.connection, PRODUCTION_REPOSITORY, ARCHIVE_STORE],
      useFactory: wiring.createDispatch,
    },
    {
      provide: consumer,
      inject: [wiring.connection, GradingWorker, PRODUCTION_REPOSITORY],
      useFactory: (connection: C, grading: GradingWorker, productions: ProductionRepository) =>
        wiring.createConsumer ? wiring.createConsumer(connection, grading, productions) : null,
    },
    {
      // Nest calls the lifecycle hooks of any provider instance, factory-made ones included.
      provide: Symbol(`${wiring.module.name} lifecycle`),
      inject: [wiring.connection, wiring.dispatch, consumer],
      useFactory: (connection: C, dispatch: D, consumer: W | null) => {
        const parts: BrokerParts<C, D, W> = { connection, dispatch, consumer };
        return {
          onApplicationBootstrap: () => wiring.start(parts),
          onApplicationShutdown: () => wiring.stop(parts),
        };
      },
    },
  ];
  return { module: wiring.module, providers, exports: [wiring.dispatch] };
}

/** GRADING_DISPATCH for GradingCoreModule.forRoot(cfg, <this>). */
export function dispatchProviderOf(dispatch: Type<GradingDispatch>): Provider {
  return { provide: GRADING_DISPATCH, useExisting: dispatch };
}

/** The publisher settings both dispatches read from the shared tunables. */
export function dispatchTimingsOf(broker: BrokerTunables, reply: 'sync' | 'async') {
  return {
    reply,
    replyTimeoutMs: broker.SG_BROKER_REPLY_TIMEOUT_MS,
    publishTimeoutMs: broker.SG_BROKER_PUBLISH_TIMEOUT_MS,
    retryAfterSeconds: broker.SG_BROKER_RETRY_AFTER_S,
  };
}
