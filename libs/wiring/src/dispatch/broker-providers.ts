/**
 * The Nest bindings the broker dispatches share: one connection per process, the publisher
 * (bound to GRADING_DISPATCH), the consumer unless the spec says broker.consume: false, and
 * the lifecycle that starts and stops them. What "connect", "ready" and "close" mean stays in
 * each broker (libs/broker-*, which know nothing of Nest).
 */
import type { InjectionToken, Provider, Type } from '@nestjs/common';
import {
  ARCHIVE_STORE,
  GRADING_BACKLOG,
  GRADING_DISPATCH,
  GradingWorker,
  PRODUCTION_REPOSITORY,
  type ArchiveStore,
  type GradingBacklog,
  type GradingDispatch,
  type ProductionRepository,
} from '@shellgrade/domain';

/** The parts of one process's broker wiring, as the lifecycle sees them. */
export interface BrokerParts<C, D, W> {
  connection: C;
  dispatch: D;
  /** null when this process does not consume. */
  consumer: W | null;
}

/** What a broker's consumer is handed by default: the one grading worker and the productions. */
type GradingPorts = [grading: GradingWorker, productions: ProductionRepository];

export interface BrokerWiring<C, D extends GradingDispatch, W, P extends unknown[] = GradingPorts> {
  /** Names the lifecycle provider (e.g. 'rabbitmq'). */
  name: string;
  connection: Type<C>;
  connect: () => C;
  dispatch: Type<D>;
  /** `backlog`: what a queue-full refusal tells the student (bound by the persistence adapter; absent in bare test modules). */
  createDispatch: (connection: C, productions: ProductionRepository, archives: ArchiveStore, backlog?: GradingBacklog) => D;
  /** null when this process does not consume (broker.consume: false). */
  createConsumer: ((connection: C, ...ports: P) => W) | null;
  /** The ports createConsumer is handed after the connection, in order; unset: [GradingWorker, PRODUCTION_REPOSITORY]. */
  consumerPorts?: InjectionToken[];
  /** At application bootstrap: resolves once the parts are connected and consuming. */
  start: (parts: BrokerParts<C, D, W>) => Promise<void>;
  /** At application shutdown: stops consuming, then closes the publisher and the connection. */
  stop: (parts: BrokerParts<C, D, W>) => Promise<void>;
}

/** GRADING_DISPATCH and the broker parts behind it. */
export function brokerProviders<C, D extends GradingDispatch, W, P extends unknown[] = GradingPorts>(wiring: BrokerWiring<C, D, W, P>): Provider[] {
  const consumer = Symbol(`${wiring.name} consumer`);
  return [
    { provide: wiring.connection, useFactory: wiring.connect },
    {
      provide: wiring.dispatch,
      inject: [wiring.connection, PRODUCTION_REPOSITORY, ARCHIVE_STORE, { token: GRADING_BACKLOG, optional: true }],
      useFactory: (connection: C, productions: ProductionRepository, archives: ArchiveStore, backlog: GradingBacklog | null) =>
        wiring.createDispatch(connection, productions, archives, backlog ?? undefined),
    },
    { provide: GRADING_DISPATCH, useExisting: wiring.dispatch },
    {
      provide: consumer,
      inject: [wiring.connection, ...(wiring.consumerPorts ?? [GradingWorker, PRODUCTION_REPOSITORY])],
      useFactory: (connection: C, ...ports: P) => (wiring.createConsumer ? wiring.createConsumer(connection, ...ports) : null),
    },
    {
      // Nest calls the lifecycle hooks of any provider instance, factory-made ones included.
      provide: Symbol(`${wiring.name} lifecycle`),
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
}
