/**
 * Which adapter each spec value plugs into its port: one line per adapter, and the sandboxed
 * grader every dispatch ends in. A new adapter (another transport or store) is its folder,
 * its spec value, and one line here.
 */
import { cpus } from 'node:os';
import type { Provider } from '@nestjs/common';
import { BoundedAdmission, observeAdmission } from '@shellgrade/admission';
import { TRIAL_ADMISSION, TRIAL_RETRY_AFTER_S } from '@shellgrade/application';
import { InlineDispatch, InterruptedGradingSweeper, staleAfterMs } from '@shellgrade/dispatch';
import { EventLoopPressure } from '@shellgrade/event-loop-pressure';
import {
  ARCHIVE_STORE,
  ARCHIVE_VALIDATOR,
  GRADER,
  GRADING_DISPATCH,
  GradingWorker,
  LOGIN_ADMISSION,
  PRODUCTION_REPOSITORY,
  SUBMISSION_ADMISSION,
  SUBMISSION_CONTEXT,
  SubmissionService,
  admitEverything,
  type ArchiveStore,
  type ArchiveValidator,
  type Grader,
  type GradingDispatch,
  type ProductionRepository,
  type SubmissionAdmission,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import {
  asyncJobRunner,
  blockingJobRunner,
  SandboxGrader,
  validateArchive,
  warmPoolJobRunner,
  zygoteJobRunner,
  type GraderOptions,
  type JobRunnerFactory,
} from '@shellgrade/grading';
import { PgSessionProductions } from '@shellgrade/persistence';
import { ExerciseServiceSessionProductions } from '@shellgrade/service-clients';
import { minioArchiveStoreProvider, postgresArchiveStoreProvider, tracedArchiveStoreProviders, type MinioSettings } from '@shellgrade/storage';
import { tracedGrader } from '@shellgrade/telemetry';
import { admissionBounded, answerBudgetMsOf, archiveBoundsOf, loginAdmissionBounded, maxConcurrentGradings, warmPoolSize, type ServiceConfig, type VariantSpec } from '@shellgrade/variant';
import {
  databaseProviders,
  directSessionProductionsProviders,
  directSubmissionContextProviders,
  redisSessionProductionsProviders,
  redisSubmissionContextProviders,
  SESSION_PRODUCTIONS_SOURCE,
} from './cache';
import { bullMqDispatchProviders } from './dispatch/bullmq';
import { pipelineDispatchProviders } from './dispatch/pipeline';
import { rabbitMqDispatchProviders } from './dispatch/rabbitmq';
import { guardWeakIsolation } from './isolation-guard';
import { databaseSettingsOf } from './service-settings';

type Adapters<K extends string> = Record<K, (cfg: ServiceConfig) => Provider[]>;

/**
 * PostgreSQL: the pool, the repositories and their ports (every service has the one database);
 * with spec.cache redis the ports whose writes stale a cached read are bound to the decorators
 * that invalidate it (cache.ts), which the cache's providers below serve.
 */
export function database(cfg: ServiceConfig): Provider[] {
  return databaseProviders(databaseSettingsOf(cfg), cfg.spec.cache);
}

/** SUBMISSION_CONTEXT, the SPS read path, and its invalidation (cache.ts). */
export const cache: Adapters<VariantSpec['cache']> = {
  none: () => directSubmissionContextProviders,
  redis: (cfg) =>
    redisSubmissionContextProviders({ url: cfg.connections.REDIS_URL, ttlSeconds: cfg.spec.cacheTtlS, commandTimeoutMs: cfg.spec.cacheCommandTimeoutMs }),
};

/**
 * SESSION_PRODUCTIONS, what a session report (S2) reads: in-process in the monolith; in msa the
 * Exercise service over HTTP at this process's upstream (also with transport grpc: the report's
 * one bulk read stays REST, see libs/service-clients/src/exercise-service-session-productions.ts);
 * through Redis when spec.cache says so (reportCache).
 */
export const sessionProductions: Adapters<VariantSpec['topology']> = {
  monolith: (cfg) => [{ provide: SESSION_PRODUCTIONS_SOURCE, useExisting: PgSessionProductions }, ...reportCache[cfg.spec.cache](cfg)],
  msa: (cfg) => [{ provide: SESSION_PRODUCTIONS_SOURCE, useValue: new ExerciseServiceSessionProductions(exerciseClientOf(cfg)) }, ...reportCache[cfg.spec.cache](cfg)],
};

/** The S2 cache: none, or Redis on the connection cache.redis binds (both are bound in the same root). */
export const reportCache: Adapters<VariantSpec['cache']> = {
  none: () => directSessionProductionsProviders,
  redis: (cfg) => redisSessionProductionsProviders({ ttlSeconds: cfg.spec.cacheTtlS }),
};

/** Where and how long the Leftover service calls the Exercise service: its upstream, the spec's upstream timeout. */
export function exerciseClientOf(cfg: ServiceConfig): { baseUrl: string; timeoutMs: number } {
  if (!cfg.upstreams) throw new Error(`${cfg.role} of ${cfg.spec.name} has no upstreams: topology ${cfg.spec.topology}`);
  return { baseUrl: cfg.upstreams.exerciseUrl, timeoutMs: cfg.spec.gateway.upstreamTimeoutMs };
}

/** ARCHIVE_STORE: where submitted archives live. */
export const storage: Adapters<VariantSpec['storage']> = {
  postgres: () => [postgresArchiveStoreProvider],
  minio: (cfg) => [minioArchiveStoreProvider(minioSettingsOf(cfg))],
};

/** GRADING_DISPATCH: how a received submission reaches a grader. */
export const dispatch: Adapters<VariantSpec['dispatch']> = {
  inline: (cfg) => [
    {
      provide: GRADING_DISPATCH,
      inject: [GradingWorker],
      useFactory: (worker: GradingWorker) => new InlineDispatch(worker, answerBudgetMsOf(cfg.spec.admission)),
    },
    interruptedGradingSweeper(cfg),
  ],
  rabbitmq: (cfg) =>
    rabbitMqDispatchProviders({ url: cfg.connections.AMQP_URL, reply: cfg.spec.reply, broker: cfg.spec.broker, answerBudgetMs: answerBudgetMsOf(cfg.spec.admission) }),
  bullmq: (cfg) =>
    bullMqDispatchProviders({ url: cfg.connections.REDIS_URL, reply: cfg.spec.reply, broker: cfg.spec.broker, answerBudgetMs: answerBudgetMsOf(cfg.spec.admission) }),
  pipeline: (cfg) => pipelineDispatchProviders(cfg),
};

/**
 * The submission use case over the ports this root bound, beside the GradingWorker it ends in,
 * and SUBMISSION_ADMISSION: how many submissions this process takes in at once (spec.admission;
 * unbounded unless it says).
 */
export function submissions(cfg: ServiceConfig): Provider[] {
  return [
    { provide: SUBMISSION_ADMISSION, useFactory: () => submissionAdmissionOf(cfg) },
    {
      provide: SubmissionService,
      inject: [SUBMISSION_CONTEXT, ARCHIVE_VALIDATOR, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADING_DISPATCH, SUBMISSION_ADMISSION],
      useFactory: (context: SubmissionContextReader, validator: ArchiveValidator, productions: ProductionRepository, archives: ArchiveStore, dispatch: GradingDispatch, admission: SubmissionAdmission) =>
        new SubmissionService(context, validator, productions, archives, dispatch, { admission }),
    },
  ];
}

function submissionAdmissionOf(cfg: ServiceConfig): SubmissionAdmission {
  const a = cfg.spec.admission;
  if (!admissionBounded(a)) return admitEverything;
  const gate = new BoundedAdmission({
    maxInFlight: a.maxSubmissionsInFlight ?? Number.POSITIVE_INFINITY,
    maxWaitS: a.maxWaitS,
    maxInFlightPerTenant: a.maxSubmissionsInFlightPerStudent,
    fallbackRetryAfterS: a.retryAfterS,
    windowS: a.windowS,
  });
  observeAdmission('submission', () => gate.snapshot());
  return gate;
}

/**
 * LOGIN_ADMISSION: how many password checks this process runs or queues at once (spec.admission
 * maxLogins*; unbound unless it says). One gate per process: Nest builds the provider once, however
 * many modules read the auth settings.
 */
export function loginAdmission(cfg: ServiceConfig): Provider[] {
  const a = cfg.spec.admission;
  if (!loginAdmissionBounded(a)) return [];
  return [
    {
      provide: LOGIN_ADMISSION,
      useFactory: () => {
        const loop = a.maxLoginEventLoopDelayMs === undefined ? undefined : new EventLoopPressure(a.maxLoginEventLoopDelayMs);
        const gate = new BoundedAdmission({
          maxInFlight: a.maxLoginsInFlight ?? Number.POSITIVE_INFINITY,
          maxWaitS: a.maxLoginWaitS,
          fallbackRetryAfterS: a.retryAfterS,
          windowS: a.windowS,
          kind: 'login',
          ...(loop ? { pressure: () => loop.behind() } : {}),
        });
        observeAdmission('login', () => gate.snapshot());
        return gate;
      },
    },
  ];
}

/** Inline grading dies with its process: productions it left behind are found and graded once (libs/dispatch). */
function interruptedGradingSweeper(cfg: ServiceConfig): Provider {
  return {
    // Nest calls the lifecycle hooks of factory-made provider instances too.
    provide: InterruptedGradingSweeper,
    inject: [PRODUCTION_REPOSITORY, GradingWorker],
    useFactory: (productions: ProductionRepository, worker: GradingWorker) => {
      const { sweepEveryMs, sweepBatch } = cfg.spec.interruptedGradings;
      const sweeper = new InterruptedGradingSweeper(productions, worker, {
        staleAfterMs: staleAfterMs(cfg.spec.grader.timeoutMs),
        everyMs: sweepEveryMs,
        batch: sweepBatch,
      });
      return Object.assign(sweeper, { onApplicationBootstrap: () => sweeper.start(), onApplicationShutdown: () => sweeper.stop() });
    },
  };
}

/** How the grader starts each grading's process (grader.exec): one job runner per mode. */
export const graderExec: Record<VariantSpec['grader']['exec'], JobRunnerFactory> = {
  async: asyncJobRunner,
  blocking: blockingJobRunner,
  pool: warmPoolJobRunner,
  zygote: zygoteJobRunner,
};

/**
 * GRADER (the sandbox, traced when the spec traces), ARCHIVE_VALIDATOR, the GradingWorker every
 * dispatch hands submissions to, and TRIAL_ADMISSION: how many authors' grader trials hold the
 * sandbox at once in this process (spec auth.rateLimits.trialsInFlight; kept when rate limits are off).
 */
export function grader(cfg: ServiceConfig): Provider[] {
  const { spec } = cfg;
  return [
    {
      provide: GRADER,
      useFactory: () => {
        const sandbox = new SandboxGrader(graderOptionsOf(cfg), graderExec[spec.grader.exec]);
        guardWeakIsolation(sandbox.isolationShortfalls, cfg);
        return spec.tracing.enabled ? tracedGrader(sandbox, spec.grader.exec) : sandbox;
      },
    },
    {
      provide: ARCHIVE_VALIDATOR,
      useValue: { validate: (bytes: Buffer) => validateArchive(bytes, archiveBoundsOf(spec)).then(() => undefined) },
    },
    {
      provide: TRIAL_ADMISSION,
      useFactory: () => new BoundedAdmission({ maxInFlight: spec.auth.rateLimits.trialsInFlight, fallbackRetryAfterS: TRIAL_RETRY_AFTER_S }),
    },
    {
      provide: GradingWorker,
      inject: [SUBMISSION_CONTEXT, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADER],
      useFactory: (ctx: SubmissionContextReader, prods: ProductionRepository, store: ArchiveStore, g: Grader) => new GradingWorker(ctx, prods, store, g),
    },
  ];
}

/** The grader options a spec asks for, on this machine's interpreter, sandbox folder and CPUs. */
export function graderOptionsOf(cfg: ServiceConfig, cpuCount = cpus().length): GraderOptions {
  const { grader: g } = cfg.spec;
  return {
    python: cfg.connections.SG_PYTHON,
    sandboxRoot: cfg.connections.SG_SANDBOX_ROOT,
    timeoutMs: g.timeoutMs,
    isolation: g.isolation,
    niceness: g.nice,
    limits: g.limits,
    cgroups: g.cgroups,
    maxOutputBytes: g.maxOutputBytes,
    maxConcurrent: maxConcurrentGradings(g, cpuCount),
    poolSize: warmPoolSize(g, cpuCount),
    archive: archiveBoundsOf(cfg.spec),
  };
}

/** The storage adapter, inside `storage.*` spans when the spec traces. */
export function archiveStore(cfg: ServiceConfig): Provider[] {
  const [provider, ...rest] = storage[cfg.spec.storage](cfg);
  return cfg.spec.tracing.enabled ? [...tracedArchiveStoreProviders(provider, cfg.spec.storage), ...rest] : [provider, ...rest];
}

export function minioSettingsOf(cfg: Pick<ServiceConfig, 'connections'>): MinioSettings {
  const c = cfg.connections;
  return { endpoint: c.MINIO_ENDPOINT, accessKey: c.MINIO_ACCESS_KEY, secretKey: c.MINIO_SECRET_KEY, bucket: c.MINIO_BUCKET };
}
