// What a variant is made of: its topology, how a submission reaches a grader, the internal
// hops' protocol, the replicas of each role, and the paper configuration it reproduces.
import { z } from 'zod';
import { replicaCount } from './values';

export const topologies = ['monolith', 'msa'] as const;
/**
 * How a received submission reaches a grader: in the receiving process, or through a broker.
 * pipeline (paper 003, pipes and filters): through RabbitMQ queues between small filters
 * (check → grade → record, libs/pipeline-filters), each its own consumer on the exercise replicas.
 */
export const dispatchModes = ['inline', 'rabbitmq', 'bullmq', 'pipeline'] as const;
/**
 * How msa services call each other (gateway → leftover/exercise). grpc (paper 002): clients
 * still speak REST to the gateway, which forwards over gRPC (libs/grpc-edge) to each
 * service's gRPC edge on its HTTP port + GRPC_PORT_OFFSET, round-robin over the replicas.
 */
export const transports = ['http', 'grpc'] as const;

export const paperRefSchema = z.strictObject({
  /** Which paper, e.g. "000 ShellOnYou (§IV, Table I)". */
  source: z.string().min(1),
  /** The configuration's name in that paper, e.g. "MON×4" or "MSA-2-4-4". */
  configuration: z.string().min(1),
});

export const replicasSchema = z.strictObject({
  monolith: replicaCount.optional(),
  gateway: replicaCount.optional(),
  leftover: replicaCount.optional(),
  exercise: replicaCount.optional(),
});


export type Role = 'monolith' | 'gateway' | 'leftover' | 'exercise';
