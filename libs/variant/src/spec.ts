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
export const opsAccessModes = ['internal', 'public'] as const;
export const secretPolicies = ['auto', 'development', 'production'] as const;
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

const MiB = 1024 * 1024;
const bytes = positiveInt('a positive number of bytes');

/** Archive bounds beyond the compressed size (libs/grading validate-archive; DESIGN §8): 413 or 422 above them. */
export const archiveLimitsSchema = z.strictObject({
  /** Total inflated tar stream: 32× the 1 MiB compressed bound, far above any real set of scripts. */
  maxUncompressedBytes: bytes.default(32 * MiB),
  /** Entries (files, folders, links): a few dozen in a real submission; bounds per-entry work. */
  maxEntries: positiveInt().default(2000),
  /** Inflated / compressed above this marks a gzip bomb (422): text tars compress ~5-20×, bombs 1000×. */
  maxCompressionRatio: positiveInt().default(200),
});

/** Resource limits of one grading (libs/grading's SandboxLimits): rlimits per process, cgroup and tmpfs sizes per grading. */
export const graderLimitsSchema = z.strictObject({
  /** RLIMIT_CPU of each process, seconds. */
  cpuSeconds: positiveInt('a positive number of seconds').default(10),
  /** Largest file one process may write (RLIMIT_FSIZE). */
  fileSizeBytes: bytes.default(16 * MiB),
  /** Processes of the whole grading (cgroup pids.max); without the pids controller, RLIMIT_NPROC of the sandbox uid. */
  processes: positiveInt().default(64),
  /** Address space of each process (RLIMIT_AS). */
  memoryBytes: bytes.default(512 * MiB),
  /** Memory of the whole grading (cgroup), its tmpfs files included. */
  gradingMemoryBytes: bytes.default(1024 * MiB),
  /** tmpfs the grader works in (/job under bwrap): nothing a grading writes reaches the host disk. */
  jobBytes: bytes.default(128 * MiB),
  openFiles: positiveInt().default(256),
  /** Private /tmp tmpfs under bwrap (the grader's and each student script's). */
  tmpBytes: bytes.default(16 * MiB),
  /** tmpfs holding the working copies student scripts run in. */
  workBytes: bytes.default(64 * MiB),
});

export const graderSchema = z.strictObject({
  /**
   * async = spawn; blocking = synchronous exec stalling the event loop (the paper); pool = warm
   * one-shot sandboxes; zygote = long-lived sandboxes forking an isolated job per grading (bwrap as root).
   */
  exec: z.enum(['async', 'blocking', 'pool', 'zygote']).default('async'),
  isolation: z.enum(['bwrap', 'none']).default('bwrap'),
  timeoutMs: millis.default(10_000),
  /**
   * CPU niceness of grader processes, 0..19. 0 (the paper) lets grading compete with logins
   * and HTTP handling on equal terms; above 0 grading runs on the CPU that interactive work
   * leaves, which suits queue-fed graders (backlog waits in the queue, requests stay fast).
   */
  nice: z.number({ error: 'expected an integer 0..19' }).int().min(0).max(19).default(0),
  limits: graderLimitsSchema.prefault({}),
  /** Per-grading control groups: auto = where the machine allows (root, cgroup v2 delegated), off = rlimits only. */
  cgroups: z.enum(['auto', 'off']).default('auto'),
  /** Captured grader stdout above this fails the grading (a grader prints one short line). */
  maxOutputBytes: bytes.default(256 * 1024),
  /** Gradings one process runs at once (inline dispatch has no queue of its own; more wait their turn). Unset: GRADINGS_PER_CPU per CPU of the machine the process runs on (maxConcurrentGradings). */
  maxConcurrent: positiveInt().optional(),
  /** exec pool: warm sandboxes kept ready. Unset: one per CPU of the machine the process runs on (warmPoolSize). */
  poolSize: positiveInt().optional(),
  /** Bounds a submitted archive must stay within, checked before anything touches disk (the compressed size: http.maxArchiveBytes). */
  archive: archiveLimitsSchema.prefault({}),
});

/**
 * Gradings per CPU when grader.maxConcurrent is unset: grading processes mostly wait (on the
 * student scripts' sleeps, on disk), so a few per core keep the CPUs busy without a long run queue.
 */
export const GRADINGS_PER_CPU = 4;

/** The grader's concurrency on a machine with `cpus` CPUs: the spec's value, else GRADINGS_PER_CPU per CPU. */
export function maxConcurrentGradings(grader: Pick<z.output<typeof graderSchema>, 'maxConcurrent'>, cpus: number): number {
  return grader.maxConcurrent ?? GRADINGS_PER_CPU * cpus;
}

/** Warm sandboxes of exec pool on a machine with `cpus` CPUs: the spec's value, else one per CPU (a warm process per core that can run it). */
export function warmPoolSize(grader: Pick<z.output<typeof graderSchema>, 'poolSize'>, cpus: number): number {
  return grader.poolSize ?? cpus;
}

/** Every bound on a submitted archive: the compressed size the HTTP edge checks, and grader.archive. */
export function archiveBoundsOf(spec: { http: { maxArchiveBytes: number }; grader: { archive: z.output<typeof archiveLimitsSchema> } }) {
  return { maxCompressedBytes: spec.http.maxArchiveBytes, ...spec.grader.archive };
}

/** dispatch: inline — the sweep that regrades productions whose grading process died (libs/dispatch interrupted-gradings). */
export const interruptedGradingsSchema = z.strictObject({
  /** Pause between sweeps: how late at most an orphaned production is noticed once it is stale. */
  sweepEveryMs: millis.default(15_000),
  /** Productions regraded per sweep, one after another (bounds the extra load one sweep adds). */
  sweepBatch: positiveInt().default(20),
});

export const tracingSchema = z.strictObject({
  enabled: z.boolean({ error: 'expected true or false' }).default(false),
  sampleRatio: z.number({ error: 'expected a number between 0 and 1' }).min(0).max(1).default(1),
});

export const databaseSchema = z.strictObject({
  /** Connections per process; every replica opens its own pool against the one database. */
  pool: positiveInt().max(200).default(10),
  /** An idle pooled connection is closed after this long: a quiet replica gives its server slots back. */
  idleTimeoutMs: millis.default(30_000),
});

const nonNegativeInt = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).min(0, { error: `expected ${what}` });

/** BullMQ's own job-lock and retention settings (dispatch: bullmq). */
export const bullMqSchema = z.strictObject({
  /** Job lock; renewed every half of it by the worker (grading runs in a child process). */
  lockMs: positiveInt().min(1_000).default(30_000),
  /** How often workers look for jobs whose lock expired (their worker died). */
  stalledIntervalMs: positiveInt().min(1_000).default(30_000),
  /** Stalls (worker deaths mid-job) a job survives before it is failed. */
  maxStalled: positiveInt().default(2),
  /** Finished jobs kept in Redis (bounded retention); the failed set is swept at start-up up to keepFailed. */
  keepCompleted: nonNegativeInt('a non-negative integer').default(1_000),
  keepFailed: nonNegativeInt('a non-negative integer').default(5_000),
});

/** The AMQP connection's own settings (dispatch: rabbitmq). */
export const rabbitMqSchema = z.strictObject({
  /** Seconds between heartbeats; a dead broker is noticed within about two of them. */
  heartbeatS: positiveInt('a positive number of seconds').default(5),
  /** Seconds between reconnection attempts after the broker went away. */
  reconnectS: positiveInt('a positive number of seconds').default(1),
  /** How long a starting process waits for the broker (publisher and consumer ready) before it fails. */
  connectTimeoutMs: millis.default(30_000),
  /** At shutdown, how long the consumer lets in-flight gradings finish (below the process manager's kill timeout). */
  closeGraceMs: millis.default(10_000),
});

export const brokerSchema = z.strictObject({
  /** Work queue name; unset = the broker's own (rabbitmq: sg.grading, bullmq: sg-grading; BullMQ forbids ':'). Pipeline: the prefix of its filters' queues (sg.pipeline). */
  queue: z.string().min(1).regex(/^[^:]+$/, { error: "expected a queue name without ':'" }).optional(),
  /** Unacknowledged jobs one consumer holds (RabbitMQ prefetch / BullMQ worker concurrency). */
  prefetch: positiveInt().default(1),
  /** In-flight jobs above which the gateway sheds with 503 + Retry-After. */
  queueBound: positiveInt().default(1000),
  /** Deliveries of a failing job before it is dead-lettered. */
  retries: nonNegativeInt('a non-negative integer').max(100).default(3),
  /** Pause before a failed job is delivered again (base of an exponential backoff). */
  retryDelayMs: nonNegativeInt('a non-negative number of milliseconds').default(500),
  /**
   * How long a sync reply waits for the job's result, counted from the request's arrival, before
   * answering 202 (graded later, poll). As long as the callers allow (proxies and k6: 60 s) minus
   * a margin: answering earlier only withholds feedback that was about to come.
   */
  replyTimeoutMs: millis.default(50_000),
  /** How long a publish may wait for the broker (reconnection included) before the submission is refused. */
  publishTimeoutMs: millis.default(10_000),
  /** Retry-After (seconds) of the 503 answered when the queue is full or the broker is down. */
  retryAfterS: positiveInt().default(5),
  /** Whether the exercise replicas consume the queue (false: publish only, e.g. to watch the bound). */
  consume: z.boolean({ error: 'expected true or false' }).default(true),
  bullmq: bullMqSchema.prefault({}),
  rabbitmq: rabbitMqSchema.prefault({}),
});

/** The filters of dispatch: pipeline, in the order a submission goes through them (libs/pipeline-filters). */
export const pipelineFilters = ['check', 'grade', 'record'] as const;
export type PipelineFilter = (typeof pipelineFilters)[number];

/** One filter's workers: how many messages each holds and how many exercise replicas run one. */
const pipelineFilterSchema = (prefetch: number) =>
  z.strictObject({
    /** Messages one worker of this filter holds at once (its RabbitMQ prefetch). */
    prefetch: positiveInt().default(prefetch),
    /** Exercise replicas that run a worker of this filter (replicas 0..n-1); unset: every one. Scales the filter apart from the others. */
    replicas: replicaCount.optional(),
  });

/**
 * dispatch: pipeline — each filter consumes its own queue (<broker.queue>.<filter>) and passes
 * the production on to the next; broker.queueBound, retries, retryDelayMs and the reply
 * timeouts apply to every filter's queue (broker.prefetch does not: each filter has its own).
 */
export const pipelineSchema = z.strictObject({
  /** Re-reads the stored archive, checks its digest and bounds before it takes a sandbox: cheap, 4 at once. */
  check: pipelineFilterSchema(4).prefault({}),
  /** Runs the sandboxed grader: 1 at once per replica, as broker.prefetch in the rabbitmq presets. */
  grade: pipelineFilterSchema(1).prefault({}),
  /** Stores the outcome (grade or failure) and answers a sync requester: one database write, 8 at once. */
  record: pipelineFilterSchema(8).prefault({}),
});

/** What the HTTP edge of every service accepts. */
export const httpSchema = z.strictObject({
  /** Browser origins allowed with credentials, comma-separated; * = any; empty = no CORS (the SPA is served same-origin). */
  corsOrigins: z.string({ error: 'expected comma-separated origins, * or empty' }).default(''),
  /** Largest accepted submission archive (gzip-compressed bytes): 413 above it; the grader checks it again. The body limit derives from it. */
  maxArchiveBytes: positiveInt().default(1024 * 1024),
  /** Who reads /metrics, /docs and /health detail: internal = a credential (the scrape token; a staff account for the console's /ops) or a loopback caller straight to the service; public = anyone (development). */
  opsAccess: z.enum(opsAccessModes).default('internal'),
  /** Idle client connections of a service are kept this long: longer than the idle timeout of what calls it (HAProxy, the gateway's agents, k6), so a reused connection is never closed under a request. */
  keepAliveMs: millis.default(65_000),
  /** A request whose body and answer take longer is cut (Node's server requestTimeout): above every upstream and reply timeout (60 s). */
  requestTimeoutMs: millis.default(120_000),
});

/** A fixed window: `points` attempts per `durationS` seconds. */
export const rateWindowSchema = z.strictObject({
  points: positiveInt(),
  durationS: positiveInt('a positive number of seconds'),
});

/**
 * Rate limits (libs/auth, 429 + Retry-After). Login and enrolment limits count FAILED attempts
 * only, so a load test logging thousands of seeded students in from one client is never
 * throttled; the submission limit counts every submission (the paper profile: ~6/min/student).
 */
export const rateLimitsSchema = z.strictObject({
  /** false turns every limit off (e.g. so that no limit shapes a measurement). */
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  /**
   * Where counters live: memory (one process) or redis (REDIS_URL, shared by every replica).
   * Unset: per role (rateLimitStoreOf) — redis for a role that checks limits (monolith, leftover,
   * exercise) with more than one replica (else each replica would allow the limit again), memory
   * for a role with one: each counter is checked by one role only, so a single leftover keeps
   * exact login counters in memory while the exercise replicas share theirs.
   */
  store: z.enum(['memory', 'redis']).optional(),
  /**
   * Failed logins of one account, from any client (password guessing against one student). Spent,
   * it refuses only clients that failed on that account themselves: strangers cannot lock the owner out.
   */
  loginFailuresPerAccount: rateWindowSchema.default({ points: 10, durationS: 15 * 60 }),
  /** Failed logins of one account from one client address (keyed on client + account: a shared address never locks other accounts out). */
  loginFailuresPerClient: rateWindowSchema.default({ points: 100, durationS: 15 * 60 }),
  /** Failed logins from one client address across accounts (password spraying); a lab behind one NAT shares it. */
  loginFailuresPerAddress: rateWindowSchema.default({ points: 30, durationS: 15 * 60 }),
  /** Wrong enrolment keys tried by one user. */
  enrolmentKeyFailuresPerUser: rateWindowSchema.default({ points: 10, durationS: 15 * 60 }),
  /** Submissions of one student. */
  submissionsPerStudent: rateWindowSchema.default({ points: 30, durationS: 60 }),
  /** Grader trials (POST /api/exercise-trial) of one exercise author. */
  trialsPerAuthor: rateWindowSchema.default({ points: 30, durationS: 10 * 60 }),
  /** Grader trials running at once in one process: beyond, 503 + Retry-After (kept with enabled: false, it bounds the grader's load). */
  trialsInFlight: positiveInt().default(2),
});

export const authSchema = z.strictObject({
  accessTtlS: positiveInt().default(900),
  refreshTtlS: positiveInt().default(7 * 24 * 3600),
  /** Cost of new password hashes (libs/auth password.ts): 14 = argon2id at OWASP's minimum (19 MiB, t = 2, ~15 ms); below 14, scrypt N = 2^kdfCost (1: the paper-faithful login cost). */
  kdfCost: positiveInt().max(20).default(14),
  /** Secure flag on cookies: true, false, or auto = when the request came over TLS (X-Forwarded-Proto https from a trusted proxy). */
  secureCookies: z.union([z.boolean(), z.literal('auto')], { error: "expected true, false or 'auto'" }).default('auto'),
  /** Path the refresh cookie is sent to: only the refresh routes, never every API call. */
  refreshCookiePath: z.string().regex(/^\//, { error: "expected a path starting with '/'" }).default('/api/auth'),
  /** How long a replica trusts an account's token version it read: the longest a role change or deletion waits to hold. */
  tokenVersionCacheMs: nonNegativeInt('a non-negative number of milliseconds').default(5_000),
  /** Default secrets (SG_JWT_SECRET, database/broker/object-store credentials): development accepts them, production refuses them, auto = development only while listening on loopback. */
  secretPolicy: z.enum(secretPolicies).default('auto'),
  rateLimits: rateLimitsSchema.prefault({}),
  /**
   * The proxies whose X-Forwarded-For names the client that keys the per-client rate limits: IP
   * addresses, CIDR ranges or loopback / linklocal / uniquelocal. Unset: loopback for a process
   * that has the variant's own HAProxy or gateway in front of it (they run on loopback), none
   * otherwise (the peer is the client). Compose or Kubernetes deployments name their network here.
   */
  trustedProxies: z.array(z.string().min(1)).optional(),
});

/**
 * What the gateway does besides forwarding (paper 003's patterns). proxy: it only routes.
 * aggregation: it also answers GET /api/dashboard itself, from three reads made in parallel
 * (libs/gateway/src/aggregation), where a client would otherwise make them one after another.
 * offloading: it checks the login once and forwards a signed, short-lived identity assertion that
 * the services verify instead (libs/auth identity-assertion.ts); they refuse requests without one.
 */
export const gatewayPatterns = ['proxy', 'aggregation', 'offloading'] as const;

/**
 * What runs the gateway. node: our NestJS gateway (the papers'), every pattern and transport,
 * traced and metered. haproxy: the variant's HAProxy in its place, routing /api by the same
 * route table (libs/gateway route-table.ts) straight to the replicas and answering CORS
 * preflights itself — one C hop instead of a Node process answering every request (issue 31
 * item 2: the Node hop was most of what msa costs above the monolith). Pattern proxy over http
 * only; the trace of a request starts at the service it reaches, and the leftover serves the
 * web app.
 */
export const gatewayEngines = ['node', 'haproxy'] as const;

export const gatewaySchema = z.strictObject({
  engine: z.enum(gatewayEngines).default('node'),
  pattern: z.enum(gatewayPatterns).default('proxy'),
  /** How long the gateway waits for an upstream answer (504 after it). */
  upstreamTimeoutMs: millis.default(60_000),
  /**
   * Concurrent gateway connections per upstream URL; beyond it requests wait inside the gateway.
   * Sync SPS hold theirs while grading (seconds under load), so this must exceed the SPS in flight.
   */
  upstreamMaxSockets: positiveInt().default(1024),
  /** Idle keep-alive connections kept per upstream URL for reuse; more are closed once a burst is over. */
  upstreamMaxFreeSockets: positiveInt().default(64),
  /** How long a replica that refused a connection answers 503 without being tried. */
  downCooldownMs: millis.default(1_000),
  /** Idle client connections are kept this long (longer than HAProxy's / k6's idle timeouts). */
  clientKeepAliveMs: millis.default(65_000),
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

/**
 * Admission of submissions per process (libs/admission BoundedAdmission): beyond the budget a
 * submission gets 503 + Retry-After before anything is stored. Unset bounds: every submission is
 * admitted, as in the papers' systems. Logins and reads are never counted, so a submission backlog
 * cannot starve them of a place. On by default in every preset that reproduces no paper
 * configuration (no `paper` field; ADMISSION_DEFAULTS fill the bounds it leaves unset); a paper
 * preset keeps the paper's behaviour (admit everything, grade everything) unless it sets a bound.
 * `enabled: false` is off: no gate, no answer deadline, whatever bounds an extended preset set.
 */
export const admissionSchema = z.strictObject({
  /**
   * Unset: on unless the spec names a paper configuration (a paper preset still applies the bounds it
   * sets itself, without defaults); false: off, the papers' behaviour — a bound inherited through
   * `extends` must not keep shedding submissions in a spec that turned admission off.
   */
  enabled: z.boolean().optional(),
  /**
   * How long after a submission arrived its client still waits for the answer (its timeout; the
   * proxies' 60 s): a grading that could only start later is not started and the production ends
   * failed, `expired: …` (issue 31 item 3). Unset: every accepted submission is graded, however late.
   */
  answerDeadlineS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /** Submissions one process holds at once (validated, stored, graded or waiting for a grader or a reply). */
  maxSubmissionsInFlight: positiveInt().optional(),
  /**
   * Target latency of a submission (arrival → answer): while the gate is busy and the median of its
   * recent submissions took longer, the gate's concurrency limit shrinks (down to 1), and grows back
   * when they are fast again. An idle or merely slow process never shrinks it.
   */
  maxWaitS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /**
   * Submissions one student may have in flight in one process at once: a student's own slow or
   * endless submissions wait behind themselves (503 + Retry-After), never in front of the class.
   */
  maxSubmissionsInFlightPerStudent: positiveInt().optional(),
  /** Retry-After of a refusal before the process has measured how long its work takes. */
  retryAfterS: positiveInt('a positive number of seconds').default(5),
  /** Password checks (scrypt) one process runs or queues at once; a login beyond gets 503 + Retry-After instead of a growing queue. */
  maxLoginsInFlight: positiveInt().optional(),
  /** Target latency of a password check, as maxWaitS is for submissions: the login gate's limit adapts to it. */
  maxLoginWaitS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /**
   * A login arriving while the process's event loop runs further behind than this (p99 delay of
   * the last half second, ms) is refused: new sessions wait until the students inside are served.
   */
  maxLoginEventLoopDelayMs: positiveInt('a positive number of milliseconds').optional(),
});

/**
 * The bounds admission control takes when it is on and the spec leaves them unset: the measured
 * naked-mon-zygote-admission budget (issue 21), and the proxies' and the default client's 60 s as
 * the answer deadline. The event-loop bound of logins stays opt-in: a blocking grader stalls the
 * loop after every grading and would refuse every login.
 */
export const ADMISSION_DEFAULTS = {
  maxSubmissionsInFlight: 64,
  maxWaitS: 5,
  maxSubmissionsInFlightPerStudent: 2,
  // The ceiling of an adaptive limit, not a forecast: a class arriving at once (tens of logins in
  // the same second) is admitted; the limit shrinks only when checks really take longer than 0.5 s.
  maxLoginsInFlight: 64,
  maxLoginWaitS: 0.5,
  answerDeadlineS: 60,
} as const;

type Admission = z.output<typeof admissionSchema>;

/**
 * The admission a spec runs with: off (no bound at all) when it says `enabled: false`; its own bounds
 * completed by ADMISSION_DEFAULTS when on (explicitly, or by not reproducing a paper); a paper
 * preset's own bounds alone otherwise (on when it sets any).
 */
export function effectiveAdmission(admission: Admission, reproducesPaper: boolean): Admission {
  if (admission.enabled === false) return { enabled: false, retryAfterS: admission.retryAfterS };
  if (admission.enabled === true || !reproducesPaper) return { ...ADMISSION_DEFAULTS, ...admission, enabled: true };
  const own = { ...admission, enabled: true };
  return admissionBounded(own) || loginAdmissionBounded(own) || answerBudgetMsOf(own) !== undefined ? own : { ...admission, enabled: false };
}

/** Whether the spec bounds the admission of submissions at all (on, and either bound set). */
export function admissionBounded(a: z.output<typeof admissionSchema>): boolean {
  return a.enabled !== false && (a.maxSubmissionsInFlight !== undefined || a.maxWaitS !== undefined);
}

/** How long after its arrival a submission's client still waits for the answer, in ms; undefined: no answer deadline (or admission off). */
export function answerBudgetMsOf(a: z.output<typeof admissionSchema>): number | undefined {
  return a.enabled === false || a.answerDeadlineS === undefined ? undefined : Math.round(a.answerDeadlineS * 1000);
}

/** Whether the spec bounds the password checks of logins (on, and any bound set). */
export function loginAdmissionBounded(a: z.output<typeof admissionSchema>): boolean {
  return a.enabled !== false && (a.maxLoginsInFlight !== undefined || a.maxLoginWaitS !== undefined || a.maxLoginEventLoopDelayMs !== undefined);
}

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

/**
 * Where the rate-limit counters of one role live: the spec's store when it names one; else Redis
 * exactly when the role runs more than one replica. Each counter is checked by one role only —
 * logins and enrolment keys by the monolith or the leftover, submissions and trials by the
 * monolith or the exercise replicas — so one replica's memory counters are exact.
 */
export function rateLimitStoreOf(spec: { replicas: z.output<typeof replicasSchema>; auth: { rateLimits: { store?: 'memory' | 'redis' } } }, role: Role): 'memory' | 'redis' {
  if (spec.auth.rateLimits.store) return spec.auth.rateLimits.store;
  return role !== 'gateway' && (spec.replicas[role] ?? 0) > 1 ? 'redis' : 'memory';
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
export type Role = 'monolith' | 'gateway' | 'leftover' | 'exercise';
export type Topology = VariantSpec['topology'];
