/**
 * Builds the command line that runs one grader. Under `bwrap` (root service): a fresh
 * mount/pid/net/ipc/uts namespace where only the job directory is writable and system folders
 * and the interpreter are read-only; its first process is the grading job
 * (shellgrade_grader.supervise), which starts the student supervisor (sandbox-exec --supervise:
 * every student script in a nested sandbox of its own, as another uid) and then runs grader.py
 * itself as uid 65534 under the resource limits. Real uids, no user
 * namespace: a namespace mapping 65534 onto root would ignore RLIMIT_NPROC. A non-root service
 * falls back to a user namespace mapping its own uid, with prlimit and no student sandbox.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { SANDBOX_GID, SANDBOX_UID, STUDENT_UID, type Isolation, type SandboxLimits } from './grader-options';

export interface CommandSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface SandboxCommandInput {
  isolation: Isolation;
  bwrapPath: string;
  python: string;
  helperLibDir: string;
  jobDir: string;
  locale: string;
  limits: SandboxLimits;
  /** Run at this niceness (coreutils `nice`; 0 or absent = unchanged). Children inherit it. */
  niceness?: number;
  /** Prefix with coreutils `timeout`, which kills its own process group (blocking mode). */
  wallClockSeconds?: number;
  /** Interpreter arguments replacing the contract's `-S -u grader.py ...` (pool mode). */
  pythonArgs?: string[];
  /** Join these cgroup.procs files first (one control group per grading, every hierarchy). */
  cgroupProcs?: string[];
  /**
   * The service runs as root (default here): bwrap needs no user namespace and the supervisor drops
   * to the real uid 65534. Otherwise a user namespace maps the service user to 65534 inside.
   */
  privileged?: boolean;
  /**
   * Zygote mode: a long-lived sandbox serving many jobs. `jobDir` is then its inbox (one folder
   * per job, read-only inside), and the grading groups' parents are bound in for each job to join.
   */
  zygote?: { cgroupParents: string[] };
  /** The system-call filter (a BPF program, seccomp.ts) the grader and the student scripts run under (root bwrap). */
  seccompFilter?: string;
  /** The student sandbox's launcher (sandbox-launcher.ts): the supervisor spawns it for each student script (root bwrap). */
  sandboxLauncher?: string;
}

/** Pool mode: a warm interpreter that runs grader.py once its job's locale arrives on stdin. */
export const WARM_PYTHON_ARGS = ['-S', '-u', '-m', 'shellgrade_grader.warm'];
/** Zygote mode: the sandboxed interpreter that forks one isolated job per grading (root bwrap only). */
export const ZYGOTE_PYTHON_ARGS = ['-S', '-u', '-m', 'shellgrade_grader.zygote'];
/** Async/blocking under a root bwrap: the supervisor runs grader.py (same argv) and the student sandboxes. */
const supervisorArgs = (locale: string) => ['-S', '-u', '-m', 'shellgrade_grader.supervise', locale];

/** Where things appear inside the bwrap sandbox. */
const JOB_MOUNT = '/job';
const HELPER_MOUNT = '/opt/shellgrade/python';
/** Root-only tmpfs where the supervisor makes the students' throw-away working copies. */
const WORK_MOUNT = '/run/sg-work';
/** The host job folder, read-only: the supervisor copies the inputs into the /job tmpfs. */
const INPUT_MOUNT = '/run/sg-input';
/** Zygote mode: the worker's inbox (a folder per job) and the grading groups' parents, one per hierarchy. */
const INBOX_MOUNT = '/run/sg-inbox';
const CGROUP_MOUNT = '/run/sg-cgroup';
const SECCOMP_MOUNT = '/opt/shellgrade/seccomp.bpf';
const LAUNCHER_MOUNT = '/opt/shellgrade/sandbox-exec';
const SYSTEM_TOP_DIRS = ['/bin', '/lib', '/lib64', '/sbin'];
const ETC_FILES = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/passwd', '/etc/group', '/etc/nsswitch.conf', '/etc/localtime'];

export const GRADER_FILES = {
  script: 'grader.py',
  statement: 'statement.html',
  question: 'question.tar.gz',
  submission: 'submitted.tar.gz',
  /** What the service's validator read in the submission; the sandbox refuses an archive that reads otherwise (extract.py). */
  submissionManifest: 'submitted.manifest.json',
} as const;

export function buildSandboxCommand(input: SandboxCommandInput): CommandSpec {
  const sandboxed = input.isolation === 'bwrap';
  if (input.niceness !== undefined && !(Number.isInteger(input.niceness) && input.niceness >= 0 && input.niceness <= 19)) {
    throw new RangeError(`grader niceness must be an integer in 0..19, got ${input.niceness}`);
  }
  const jobPath = sandboxed ? JOB_MOUNT : input.jobDir;
  // -S: no site-packages. Graders need only the stdlib and shellgrade_grader (on PYTHONPATH),
  // and site's .pth hooks can cost ~150 ms per start; sys.argv is the contract's unchanged.
  const graderArgs = [
    '-S',
    '-u',
    GRADER_FILES.script,
    GRADER_FILES.statement,
    GRADER_FILES.question,
    GRADER_FILES.submission,
    input.locale,
  ];
  // Under bwrap (--new-session) or a detached spawn the grader leads its own session, hence
  // its own scheduler autogroup; a blocking, unsandboxed one shares the service's session.
  const ownSession = sandboxed || input.wallClockSeconds === undefined;
  const deprioritize = input.niceness && ownSession ? autogroupNiceArgs(input.niceness) : [];
  const privileged = input.privileged ?? true;
  const byCgroup = (input.cgroupProcs?.length ?? 0) > 0;
  // A root sandbox starts the supervisor, which applies the limits itself after forking.
  const supervised = sandboxed && privileged;
  const inner = supervised
    ? [input.python, ...(input.pythonArgs ?? supervisorArgs(input.locale))]
    : [...prlimitArgs(input.limits, byCgroup), '--', input.python, ...(input.pythonArgs ?? graderArgs)];
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: jobPath,
    TMPDIR: sandboxed ? '/tmp' : input.jobDir,
    LANG: 'C.UTF-8',
    PYTHONPATH: sandboxed ? HELPER_MOUNT : input.helperLibDir,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
    SG_ISOLATION: input.isolation,
    ...(supervised ? supervisorEnv(input.limits, byCgroup || (input.zygote?.cgroupParents.length ?? 0) > 0, !input.zygote) : {}),
    ...(supervised && input.seccompFilter ? { SG_SECCOMP: SECCOMP_MOUNT } : {}),
    ...(supervised && input.sandboxLauncher ? { SG_SANDBOX_EXEC: LAUNCHER_MOUNT } : {}),
  };
  // The autogroup is reniced while still root: without CAP_SYS_ADMIN the kernel accepts one
  // autogroup write per 100 ms machine-wide, fewer than the gradings per second under load.
  let argv = sandboxed ? [input.bwrapPath, ...bwrapArgs(input, env, privileged), '--', ...deprioritize, ...inner] : [...deprioritize, ...inner];
  if (input.niceness) argv = ['/usr/bin/nice', '-n', String(input.niceness), ...argv];
  if (input.wallClockSeconds !== undefined) {
    argv = ['/usr/bin/timeout', '--signal=KILL', String(input.wallClockSeconds), ...argv];
  }
  if (input.cgroupProcs?.length) argv = [...joinCgroupArgs(input.cgroupProcs), ...argv];
  return { file: argv[0], args: argv.slice(1), env: sandboxed ? {} : env, cwd: input.jobDir };
}

/** A shell that moves itself into the grading's control groups, then becomes the command (children follow). */
function joinCgroupArgs(procsFiles: string[]): string[] {
  return ['/bin/sh', '-c', 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"', 'sg-cgroup', ...procsFiles, '--'];
}

/**
 * With CONFIG_SCHED_AUTOGROUP (Debian's default) the CPU is shared between sessions, not
 * processes, so a process nice inside the grader's fresh session changes nothing: each grader
 * would weigh as much as a whole service. Renicing the session's autogroup makes the weight
 * real. The sandboxed code can at most write it back to 0 (the service's weight), never below;
 * kernels without autogroup have no such file, and the grader runs unchanged.
 */
function autogroupNiceArgs(niceness: number): string[] {
  return ['/bin/sh', '-c', '{ echo "$0" > /proc/self/autogroup; } 2>/dev/null; exec "$@"', String(niceness)];
}

/**
 * Per-uid RLIMIT_NPROC: the process bound where no pids cgroup exists. With one, the cgroup
 * bounds each grading and a per-uid limit would only let one grading's fork bomb starve the
 * others (every grading shares the sandbox uids).
 */
const nproc = (l: SandboxLimits, byCgroup: boolean) => (byCgroup ? 'unlimited' : String(l.processes));

function prlimitArgs(l: SandboxLimits, byCgroup: boolean): string[] {
  return [
    '/usr/bin/prlimit',
    // soft < hard: the soft limit delivers SIGXCPU (a nameable cause) before the hard SIGKILL
    `--cpu=${l.cpuSeconds}:${l.cpuSeconds + 1}`,
    `--fsize=${l.fileSizeBytes}`,
    `--nproc=${nproc(l, byCgroup)}`,
    `--as=${l.memoryBytes}`,
    `--nofile=${l.openFiles}`,
    '--core=0',
  ];
}

/** What the supervisor needs: who to become, which limits, where its inputs are and students' copies go. */
function supervisorEnv(l: SandboxLimits, byCgroup: boolean, oneJob: boolean): Record<string, string> {
  return {
    SG_GRADER_UID: String(SANDBOX_UID),
    SG_STUDENT_UID: String(STUDENT_UID),
    // order fixed by shellgrade_grader/limits.py: cpu:fsize:nproc:as:nofile
    SG_LIMITS: [l.cpuSeconds, l.fileSizeBytes, nproc(l, byCgroup), l.memoryBytes, l.openFiles].join(':'),
    ...(oneJob ? { SG_INPUT_DIR: INPUT_MOUNT } : {}), // a zygote's jobs take theirs from the inbox
    SG_WORK_ROOT: WORK_MOUNT,
    SG_TMP_BYTES: String(l.tmpBytes),
    SG_JOB_BYTES: String(l.jobBytes),
    SG_WORK_BYTES: String(l.workBytes),
  };
}

function bwrapArgs(input: SandboxCommandInput, env: Record<string, string>, privileged: boolean): string[] {
  // A zygote's jobs join their control groups first, then take a cgroup namespace of their own.
  const a = [
    '--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', ...(input.zygote ? [] : ['--unshare-cgroup-try']),
    '--die-with-parent', '--new-session',
    '--ro-bind', '/usr', '/usr',
  ];
  if (!privileged) a.unshift('--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_GID));
  for (const dir of SYSTEM_TOP_DIRS) a.push(...mirror(dir));
  a.push('--perms', '0755', '--dir', '/etc'); // bwrap creates missing parents 0700: closed to the sandbox uid
  for (const f of ETC_FILES) a.push('--ro-bind-try', f, f);
  a.push(...readOnlyInstall(pythonPrefix(input.python)));
  a.push('--perms', '0755', '--dir', '/opt', '--perms', '0755', '--dir', '/opt/shellgrade');
  a.push('--ro-bind', input.helperLibDir, HELPER_MOUNT);
  if (privileged && input.seccompFilter) a.push('--ro-bind', input.seccompFilter, SECCOMP_MOUNT);
  if (privileged && input.sandboxLauncher) a.push('--ro-bind', input.sandboxLauncher, LAUNCHER_MOUNT);
  a.push('--proc', '/proc', '--dev', '/dev');
  a.push('--size', String(input.limits.tmpBytes), '--perms', '1777', '--tmpfs', '/tmp');
  if (privileged) a.push('--size', String(input.limits.workBytes), '--perms', '0711', '--tmpfs', WORK_MOUNT);
  if (privileged && input.zygote) {
    // Each job mounts its own /job tmpfs and leaves the inbox and the groups once it has joined them.
    a.push('--ro-bind', input.jobDir, INBOX_MOUNT, '--perms', '0755', '--dir', JOB_MOUNT, '--perms', '0700', '--dir', CGROUP_MOUNT);
    input.zygote.cgroupParents.forEach((parent, i) => a.push('--bind', parent, `${CGROUP_MOUNT}/${i}`));
  } else if (privileged) {
    // The grader works in a tmpfs of bounded size; the host folder only brings the inputs in.
    a.push('--ro-bind', input.jobDir, INPUT_MOUNT, '--size', String(input.limits.jobBytes), '--perms', '0755', '--tmpfs', JOB_MOUNT);
  } else {
    a.push('--bind', input.jobDir, JOB_MOUNT);
  }
  a.push('--chdir', JOB_MOUNT, '--clearenv');
  for (const [k, v] of Object.entries(env)) a.push('--setenv', k, v);
  return a;
}

/** /bin, /lib... are symlinks into /usr on merged-usr systems: recreate the link, else bind. */
function mirror(dir: string): string[] {
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) return ['--symlink', readlinkSync(dir), dir];
    return ['--ro-bind', dir, dir];
  } catch {
    return [];
  }
}

/** The install folder of the interpreter (…/versions/3.11.7 for …/versions/3.11.7/bin/python3). */
export function pythonPrefix(python: string): string {
  return dirname(dirname(realpathSync(python)));
}

/**
 * Binds an install folder at its own path, creating world-traversable parents: on the host
 * /root is 0700, and the sandbox uid must still reach /root/.cache/shellgrade/tools/python-3.11.16.
 */
function readOnlyInstall(prefix: string): string[] {
  if (prefix === '/usr' || prefix.startsWith('/usr/')) return [];
  const a: string[] = [];
  const parts = prefix.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) a.push('--perms', '0755', '--dir', posix.join('/', ...parts.slice(0, i)));
  a.push('--ro-bind', prefix, prefix);
  return a;
}
