/**
 * dispatch: pipeline — RabbitMQ as in dispatch: rabbitmq (one connection, the publisher bound to
 * GRADING_DISPATCH, feeding the first filter's queue), and, unless broker.consume is false, the
 * workers of the filters this exercise replica runs (pipeline.<filter>.replicas: replicas
 * 0..n-1, every one when unset), each with its own prefetch.
 */
import type { Provider } from '@nestjs/common';
import { QueueDispatch } from '@shellgrade/broker-queue';
import { RabbitMqConnection, rabbitMqDispatch, RabbitMqPipelineWorkers } from '@shellgrade/broker-rabbitmq';
import { dispatchTimingsOf, within } from '@shellgrade/dispatch';
import { filterQueue, PIPELINE_FILTERS, pipelineFilters, type PipelineFilterName } from '@shellgrade/pipeline-filters';
import {
  ARCHIVE_STORE,
  ARCHIVE_VALIDATOR,
  GRADER,
  PRODUCTION_REPOSITORY,
  SUBMISSION_CONTEXT,
  type ArchiveStore,
  type ArchiveValidator,
  type Grader,
  type ProductionRepository,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import { answerBudgetMsOf, type ServiceConfig } from '@shellgrade/variant';
import { brokerProviders } from './broker-providers';
import { rabbitMqConnectionOf } from './rabbitmq';

type FilterPorts = [SubmissionContextReader, ProductionRepository, ArchiveStore, ArchiveValidator, Grader];

/** The filters replica `replica` runs, with their prefetch: those whose replicas setting reaches it. */
export function filtersOfReplica(pipeline: ServiceConfig['spec']['pipeline'], replica: number): Partial<Record<PipelineFilterName, { prefetch: number }>> {
  const run: Partial<Record<PipelineFilterName, { prefetch: number }>> = {};
  for (const filter of PIPELINE_FILTERS) {
    const { prefetch, replicas } = pipeline[filter];
    if (replicas === undefined || replica < replicas) run[filter] = { prefetch };
  }
  return run;
}

export function pipelineDispatchProviders(cfg: ServiceConfig): Provider[] {
  const { broker, pipeline } = cfg.spec;
  const { connectTimeoutMs, closeGraceMs } = broker.rabbitmq;
  const entry = filterQueue(broker.queue, PIPELINE_FILTERS[0]);
  const run = filtersOfReplica(pipeline, cfg.replica);
  const notReady = (what: string) => () => new Error(`${what} not ready after ${connectTimeoutMs} ms`);
  return brokerProviders<RabbitMqConnection, QueueDispatch, RabbitMqPipelineWorkers, FilterPorts>({
    name: 'pipeline',
    connection: RabbitMqConnection,
    connect: () => rabbitMqConnectionOf(cfg.connections.AMQP_URL, broker, entry),
    dispatch: QueueDispatch,
    createDispatch: (connection, productions, archives) =>
      rabbitMqDispatch(connection, productions, archives, { queue: entry, ...dispatchTimingsOf(broker, cfg.spec.reply, answerBudgetMsOf(cfg.spec.admission)) }),
    consumerPorts: [SUBMISSION_CONTEXT, PRODUCTION_REPOSITORY, ARCHIVE_STORE, ARCHIVE_VALIDATOR, GRADER],
    createConsumer:
      broker.consume && Object.keys(run).length > 0
        ? (connection, context, productions, archives, validator, grader) =>
            new RabbitMqPipelineWorkers(connection, pipelineFilters({ context, productions, archives, validator, grader }), productions, {
              prefix: broker.queue,
              run,
              retries: broker.retries,
              retryDelayMs: broker.retryDelayMs,
              publishTimeoutMs: broker.publishTimeoutMs,
              closeGraceMs,
            })
        : null,
    start: async ({ connection, dispatch, consumer }) => {
      await within(dispatch.ready(), connectTimeoutMs, notReady(`RabbitMQ at ${connection.topology.work}`));
      if (consumer) await within(consumer.ready(), connectTimeoutMs, notReady('pipeline filters'));
    },
    stop: async ({ connection, dispatch, consumer }) => {
      await consumer?.close();
      await dispatch.close();
      await connection.close();
    },
  });
}
