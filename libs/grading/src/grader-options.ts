/** Tunables of the sandboxed grader (docs/design.md, The sandbox: exec mode and isolation are measured knobs). */
import type { ArchiveBounds, ArchiveLimits } from './validate-archive';

export type ExecMode = 'async' | 'blocking' | 'pool' | 'zygote';
export type Isolation = 'bwrap' | 'none';

/** Resource limits of one grading: per process (rlimits) and, where cgroups allow, for the whole grading. Defaults: the spec's grader.limits. */
export interface SandboxLimits {
  /** RLIMIT_CPU of each process. */
  cpuSeconds: number;
  fileSizeBytes: number;
  /**
   * Processes of the whole grading (cgroup pids.max) where the pids controller is available;
   * otherwise RLIMIT_NPROC of the sandbox uid, shared by every grading on the machine.
   */
  processes: number;
  /** Address-space limit (RLIMIT_AS) of each process. */
  memoryBytes: number;
  /** Memory of the whole grading (cgroup), its tmpfs files included. */
  gradingMemoryBytes: number;
  /** Size of the tmpfs the grader works in (/job under bwrap): nothing a grading writes reaches the host disk. */
  jobBytes: number;
  openFiles: number;
  /** Size of the private /tmp tmpfs under bwrap (the grader's, and each student script's). */
  tmpBytes: number;
  /** Size of the tmpfs holding the working copies student scripts run in (bwrap, root service). */
  workBytes: number;
}

export interface GraderOptions {
  /** Python interpreter with tarfile extraction filters (>= 3.11.4 / 3.12). */
  python: string;
  /** Parent of the per-job directories; created if missing. */
  sandboxRoot: string;
  timeoutMs: number;
  isolation: Isolation;
  limits: SandboxLimits;
  /** Bounds a submitted archive must stay within (spec: http.maxArchiveBytes, grader.archive). */
  archive: ArchiveBounds;
  /** Narrower limits for this grader only (tests of the checks themselves). */
  archiveLimits?: Partial<ArchiveLimits>;
  /** Folder holding the shellgrade_grader package (default: libs/grading/python). */
  helperLibDir?: string;
  bwrapPath?: string;
  /** Captured stdout above this fails the grading (a grader prints one short line). */
  maxOutputBytes: number;
  /** Warm sandboxes kept ready in `pool` mode, zygote workers started ahead in `zygote` mode (spec: grader.poolSize, resolved per machine). */
  poolSize: number;
  /**
   * Scheduling niceness of grader processes (0 = same as the service, up to 19). Above 0 the
   * kernel gives interactive work (logins, HTTP) the CPU first and grading takes what is left:
   * the right trade where a queue absorbs grading backlog, not where a request waits on it.
   */
  niceness?: number;
  /**
   * Gradings run at once by this grader (inline dispatch has no queue of its own); more wait
   * their turn (spec: grader.maxConcurrent, resolved per machine).
   */
  maxConcurrent: number;
  /** Per-grading control groups: `auto` uses them where the machine allows, `off` never. */
  cgroups: 'auto' | 'off';
  /** Where failed gradings are logged with their diagnostics (default: stderr, the server log). */
  log?: (line: string) => void;
}

/** The unprivileged identity graders run as under bwrap ("nobody"). */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;
/** Student scripts run as another uid than the grader (and its group), in a sandbox of their own. */
export const STUDENT_UID = 65533;
