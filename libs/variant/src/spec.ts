/**
 * The variant wiring spec: one YAML file under infra/variants/ says how the same domain code
 * is wired (topology, dispatch, storage, cache, replicas, tunables). The launcher, the
 * benchmark runner and the deployment generators all read this one validated shape.
 */
import { z } from 'zod';

/** Upper bound per role: replica i listens on <base>+i and the role bases are 100 apart. */
export const MAX_REPLICAS = 64;

const positiveInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .min(1, { error: `expected ${what}` });

const replicaCount = positiveInt().max(MAX_REPLICAS, { error: `expected at most ${MAX_REPLICAS} replicas` });

const millis = positiveInt('a positive number of milliseconds');

export const topologies = ['monolith', 'msa'] as const;
export const dispatchModes = ['inline', 'http', 'rabbitmq', 'bullmq'] as const;
export const balanceAlgorithms = ['roundrobin', 'leastconn', 'first', 'random', 'source'] as const;

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

export const graderSchema = z.strictObject({
  /** async = spawn; blocking = synchronous exec stalling the event loop (the paper); pool = warm workers. */
  exec: z.enum(['async', 'blocking', 'pool']).default('async'),
  isolation: z.enum(['bwrap', 'none']).default('bwrap'),
  timeoutMs: millis.default(10_000),
  /**
   * CPU niceness of grader processes, 0..19. 0 (the paper) lets grading compete with logins
   * and HTTP handling on equal terms; above 0 grading runs on the CPU that interactive work
   * leaves, which suits queue-fed graders (backlog waits in the queue, requests stay fast).
   */
  nice: z.number({ error: 'expected an integer 0..19' }).int().min(0).max(19).default(0),
});

export const tracingSchema = z.strictObject({
  enabled: z.boolean({ error: 'expected true or false' }).default(false),
  sampleRatio: z.number({ error: 'expected a number between 0 and 1' }).min(0).max(1).default(1),
});

export const databaseSchema = z.strictObject({
  /** Connections per process; every replica opens its own pool against the one database. */
  pool: positiveInt().max(200).default(10),
});

export const brokerSchema = z.strictObject({
  /** Unacknowledged jobs one consumer holds (RabbitMQ prefetch / BullMQ worker concurrency). */
  prefetch: positiveInt().default(1),
  /** In-flight jobs above which the gateway sheds with 503 + Retry-After. */
  queueBound: positiveInt().default(1000),
  /** Deliveries of a failing job before it is dead-lettered. */
  retries: z.number({ error: 'expected a non-negative integer' }).int().min(0).max(100).default(3),
  /** Pause before a failed job is delivered again. */
  retryDelayMs: z.number({ error: 'expected a non-negative number of milliseconds' }).int().min(0).default(500),
  /**
   * How long a sync reply waits for the job's result, counted from the request's arrival, before
   * answering 202 (graded later, poll). As long as the callers allow (proxies and k6: 60 s) minus
   * a margin: answering earlier only withholds feedback that was about to come.
   */
  replyTimeoutMs: millis.default(50_000),
});

export const haproxySchema = z.strictObject({
  maxconn: positiveInt().default(4096),
  /** Concurrent requests HAProxy sends one replica before queueing (none = unlimited, the paper's setup). */
  serverMaxconn: positiveInt().optional(),
  balance: z.enum(balanceAlgorithms).default('roundrobin'),
  /** Extra attempts on another server when a connection fails. */
  retries: z.number({ error: 'expected a non-negative integer' }).int().min(0).max(10).default(3),
  timeouts: z
    .strictObject({
      connectMs: millis.default(5_000),
      /** The paper's balancer had a permissive timeout: it buffers while the app is busy. */
      clientMs: millis.default(60_000),
      serverMs: millis.default(60_000),
      queueMs: millis.default(60_000),
    })
    .prefault({}),
});

const envName = /^[A-Z_][A-Z0-9_]*$/;

export const variantSpecSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'expected lower-case letters, digits and dashes' }),
    description: z.string({ error: 'expected a sentence saying what this variant is' }).min(1),
    paper: paperRefSchema.optional(),
    topology: z.enum(topologies),
    /** direct: clients talk to the single entry replica; haproxy: HAProxy on 8080 in front of it. */
    entry: z.enum(['direct', 'haproxy']).optional(),
    dispatch: z.enum(dispatchModes),
    reply: z.enum(['sync', 'async']).default('sync'),
    storage: z.enum(['postgres', 'minio']).default('postgres'),
    /** redis: SPS read their submission context through Redis (paper 001's read-path cache, libs/cache). */
    cache: z.enum(['none', 'redis']).default('none'),
    replicas: replicasSchema,
    grader: graderSchema.prefault({}),
    tracing: tracingSchema.prefault({}),
    database: databaseSchema.prefault({}),
    broker: brokerSchema.prefault({}),
    haproxy: haproxySchema.prefault({}),
    /** Extra environment for every process, applied last (e.g. SG_KDF_COST). */
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
      if (spec.dispatch !== 'inline') issue(['dispatch'], 'topology monolith grades in-process: expected inline');
    } else {
      for (const role of ['gateway', 'leftover', 'exercise'] as const) {
        if (r[role] === undefined) issue(['replicas', role], 'expected a positive integer (topology msa)');
      }
      if (r.monolith !== undefined) issue(['replicas', 'monolith'], 'not allowed with topology msa');
      if (spec.dispatch === 'inline') issue(['dispatch'], 'topology msa needs http, rabbitmq or bullmq');
    }
    if (spec.reply === 'async' && spec.dispatch !== 'rabbitmq' && spec.dispatch !== 'bullmq') {
      issue(['reply'], 'async replies need a broker: dispatch rabbitmq or bullmq');
    }
    const brokered = spec.dispatch === 'rabbitmq' || spec.dispatch === 'bullmq';
    if (brokered && spec.reply === 'sync' && spec.broker.replyTimeoutMs >= spec.haproxy.timeouts.serverMs) {
      issue(['broker', 'replyTimeoutMs'], `must be below haproxy.timeouts.serverMs (${spec.haproxy.timeouts.serverMs} ms): the reply must come before the proxies give up`);
    }
    const entryReplicas = spec.topology === 'monolith' ? r.monolith : r.gateway;
    if (spec.entry === 'direct' && entryReplicas !== undefined && entryReplicas > 1) {
      issue(['entry'], `direct needs exactly one ${spec.topology === 'monolith' ? 'monolith' : 'gateway'}; use haproxy`);
    }
  })
  .transform((spec) => ({ ...spec, entry: spec.entry ?? defaultEntry(spec.topology, spec.replicas) }));

/** A replicated entry point needs a balancer; a single one is reached directly unless the spec says otherwise. */
function defaultEntry(topology: 'monolith' | 'msa', replicas: z.output<typeof replicasSchema>): 'direct' | 'haproxy' {
  const count = (topology === 'monolith' ? replicas.monolith : replicas.gateway) ?? 1;
  return count > 1 ? 'haproxy' : 'direct';
}

/** The YAML as written (defaults optional). */
export type VariantSpecInput = z.input<typeof variantSpecSchema>;
/** A validated spec with every default filled in. */
export type VariantSpec = z.output<typeof variantSpecSchema>;
export type Role = 'monolith' | 'gateway' | 'leftover' | 'exercise';
export type Topology = VariantSpec['topology'];
