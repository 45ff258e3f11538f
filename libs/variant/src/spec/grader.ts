// The grader section: how a grading runs (exec mode, isolation, limits), the bounds on a
// submitted archive, and the sweep that regrades what a dead process left (dispatch inline).
import { z } from 'zod';
import { bytes, MiB, millis, positiveInt } from './values';

/** Archive bounds beyond the compressed size (libs/grading validate-archive; docs/design.md, Untrusted input): 413 or 422 above them. */
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
