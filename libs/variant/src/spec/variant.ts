// The whole spec: every section in one validated shape, the rules across sections (each error
// names its field), and what is filled in from other fields (the entry, the queue, admission).
import { z } from 'zod';
import { admissionSchema, effectiveAdmission } from './admission';
import { authSchema } from './auth';
import { brokerSchema, pipelineFilters, pipelineSchema } from './broker';
import { databaseSchema } from './database';
import { gatewaySchema, haproxySchema } from './gateway';
import { graderSchema, interruptedGradingsSchema } from './grader';
import { httpSchema } from './http';
import { dispatchModes, paperRefSchema, replicasSchema, topologies, transports } from './topology';
import { tracingSchema } from './tracing';
import { millis, positiveInt } from './values';

const envName = /^[A-Z_][A-Z0-9_]*$/;

export const variantSpecSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'expected lower-case letters, digits and dashes' }),
    description: z.string({ error: 'expected a sentence saying what this variant is' }).min(1),
    paper: paperRefSchema.optional(),
    topology: z.enum(topologies),
    /** direct: clients talk to the single entry replica; haproxy: HAProxy on 8080 in front of it. */
    entry: z.enum(['direct', 'haproxy']).optional(),
    dispatch: z.enum(dispatchModes, {
      error: (issue) =>
        issue.input === 'http'
          ? 'dispatch http was renamed: an msa exercise service grades in-process (dispatch inline); its SPS arrive over transport http'
          : `expected one of ${dispatchModes.join(', ')}`,
    }),
    /** msa: the internal hops' protocol (the gateway reaches leftover and exercise over it). */
    transport: z.enum(transports).default('http'),
    reply: z.enum(['sync', 'async']).default('sync'),
    storage: z.enum(['postgres', 'minio']).default('postgres'),
    /** redis: SPS read their submission context through Redis (paper 001's read-path cache, libs/cache). */
    cache: z.enum(['none', 'redis']).default('none'),
    /** Lifetime of a cached submission context (cache: redis): a safety net behind the API's invalidation. */
    cacheTtlS: positiveInt().default(300),
    /** cache: redis — longest wait for one Redis command before the SPS reads PostgreSQL instead (fail open). */
    cacheCommandTimeoutMs: millis.default(100),
    replicas: replicasSchema,
    grader: graderSchema.prefault({}),
    tracing: tracingSchema.prefault({}),
    database: databaseSchema.prefault({}),
    broker: brokerSchema.prefault({}),
    /** dispatch: pipeline — its filters' workers. */
    pipeline: pipelineSchema.prefault({}),
    haproxy: haproxySchema.prefault({}),
    http: httpSchema.prefault({}),
    auth: authSchema.prefault({}),
    gateway: gatewaySchema.prefault({}),
    interruptedGradings: interruptedGradingsSchema.prefault({}),
    admission: admissionSchema.prefault({}),
    /** Extra environment for every process, applied last (e.g. NODE_OPTIONS); tunables belong in the fields above. */
    env: z
      .record(
        z.string().regex(envName, { error: 'expected an environment variable name (A-Z, 0-9, _)' }),
        z.union([z.string(), z.number(), z.boolean()]).transform(String),
      )
      .default({}),
  })
  .superRefine((spec, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const r = spec.replicas;
    if (spec.topology === 'monolith') {
      if (r.monolith === undefined) issue(['replicas', 'monolith'], 'expected a positive integer (topology monolith)');
      for (const role of ['gateway', 'leftover', 'exercise'] as const) {
        if (r[role] !== undefined) issue(['replicas', role], 'not allowed with topology monolith');
      }
      if (spec.dispatch === 'pipeline') issue(['dispatch'], 'pipeline runs its filters on the exercise replicas: it needs topology msa');
      else if (spec.dispatch !== 'inline') issue(['dispatch'], 'topology monolith grades in-process: expected inline');
    } else {
      for (const role of ['gateway', 'leftover', 'exercise'] as const) {
        if (r[role] === undefined) issue(['replicas', role], 'expected a positive integer (topology msa)');
      }
      if (r.monolith !== undefined) issue(['replicas', 'monolith'], 'not allowed with topology msa');
    }
    if (spec.topology === 'monolith' && spec.gateway.pattern !== 'proxy') {
      issue(['gateway', 'pattern'], `${spec.gateway.pattern} is a gateway pattern: it needs topology msa (a monolith has no gateway)`);
    }
    if (spec.topology === 'monolith' && spec.transport !== 'http') {
      issue(['transport'], 'topology monolith has no internal hops: expected http (or no transport)');
    }
    const brokered = spec.dispatch === 'rabbitmq' || spec.dispatch === 'bullmq' || spec.dispatch === 'pipeline';
    if (spec.reply === 'async' && !brokered) {
      issue(['reply'], 'async replies need a broker: dispatch rabbitmq, bullmq or pipeline');
    }
    if (spec.dispatch === 'pipeline') {
      for (const filter of pipelineFilters) {
        const n = spec.pipeline[filter].replicas;
        if (n !== undefined && r.exercise !== undefined && n > r.exercise) {
          issue(['pipeline', filter, 'replicas'], `at most replicas.exercise (${r.exercise}): the filters run on the exercise replicas`);
        }
      }
    }
    if (spec.dispatch === 'bullmq' && spec.grader.exec === 'blocking') {
      // BullMQ renews job locks on the event loop: a blocking grader would make every job "stalled".
      issue(['grader', 'exec'], 'dispatch bullmq needs a grader that does not block the event loop: expected async or pool');
    }
    if (brokered && spec.reply === 'sync' && spec.broker.replyTimeoutMs >= spec.haproxy.timeouts.serverMs) {
      issue(['broker', 'replyTimeoutMs'], `must be below haproxy.timeouts.serverMs (${spec.haproxy.timeouts.serverMs} ms): the reply must come before the proxies give up`);
    }
    const limits = spec.auth.rateLimits;
    if (limits.enabled && limits.store === 'memory' && rateLimitedReplicas(spec.replicas) > 1) {
      issue(['auth', 'rateLimits', 'store'], 'memory counters are per process: with more than one monolith, leftover or exercise replica each would allow the limit again; expected redis (or leave it unset)');
    }
    if (spec.gateway.engine === 'haproxy') haproxyGatewayIssues(spec, issue);
    const entryReplicas = spec.topology === 'monolith' ? r.monolith : r.gateway;
    if (spec.entry === 'direct' && entryReplicas !== undefined && entryReplicas > 1) {
      issue(['entry'], `direct needs exactly one ${spec.topology === 'monolith' ? 'monolith' : 'gateway'}; use haproxy`);
    }
  })
  .transform((spec) => ({
    ...spec,
    entry: spec.entry ?? defaultEntry(spec.topology, spec.replicas),
    broker: { ...spec.broker, queue: spec.broker.queue ?? DEFAULT_QUEUE[spec.dispatch] },
    admission: effectiveAdmission(spec.admission, spec.paper !== undefined),
  }));


/** gateway.engine haproxy: what HAProxy can stand in for (it routes; it runs no pattern's code). */
function haproxyGatewayIssues(
  spec: { topology: string; transport: string; entry?: string; replicas: { gateway?: number }; gateway: { pattern: string } },
  issue: (path: (string | number)[], message: string) => void,
): void {
  if (spec.topology !== 'msa') issue(['gateway', 'engine'], 'haproxy stands in for the gateway of topology msa (a monolith has no gateway)');
  if (spec.transport !== 'http') issue(['gateway', 'engine'], `haproxy forwards HTTP: transport ${spec.transport} needs engine node`);
  if (spec.gateway.pattern !== 'proxy') issue(['gateway', 'engine'], `haproxy only routes: pattern ${spec.gateway.pattern} needs engine node`);
  if (spec.replicas.gateway !== undefined && spec.replicas.gateway !== 1) issue(['replicas', 'gateway'], 'expected 1 with gateway engine haproxy: one HAProxy is the gateway');
  if (spec.entry === 'haproxy') issue(['entry'], 'gateway engine haproxy is already the entry: expected direct (or leave it unset)');
}


/** The most replicas of one role that checks rate limits (the gateway only forwards). */
function rateLimitedReplicas(replicas: z.output<typeof replicasSchema>): number {
  return Math.max(replicas.monolith ?? 0, replicas.leftover ?? 0, replicas.exercise ?? 0);
}


/** Each broker's conventional work-queue name (kept so queues of running brokers keep their names). */
const DEFAULT_QUEUE: Record<(typeof dispatchModes)[number], string> = {
  inline: 'sg-grading',
  rabbitmq: 'sg.grading',
  bullmq: 'sg-grading',
  pipeline: 'sg.pipeline',
};


/** A replicated entry point needs a balancer; a single one is reached directly unless the spec says otherwise. */
function defaultEntry(topology: 'monolith' | 'msa', replicas: z.output<typeof replicasSchema>): 'direct' | 'haproxy' {
  const count = (topology === 'monolith' ? replicas.monolith : replicas.gateway) ?? 1;
  return count > 1 ? 'haproxy' : 'direct';
}


/** The YAML as written (defaults optional). */
export type VariantSpecInput = z.input<typeof variantSpecSchema>;
/** A validated spec with every default filled in. */
export type VariantSpec = z.output<typeof variantSpecSchema>;
export type Topology = VariantSpec['topology'];
