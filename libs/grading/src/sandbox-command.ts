/**
 * Builds the command line that runs one grader: prlimit for resource limits, and under
 * `bwrap` a fresh mount/pid/net/ipc/uts namespace where only the job directory is writable,
 * system folders and the interpreter are read-only, and setpriv drops to uid 65534 (a real
 * unprivileged uid, so RLIMIT_NPROC applies — a user namespace mapping 65534 onto root would
 * bypass it). A non-root service falls back to such a namespace, mapping its own uid.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { SANDBOX_GID, SANDBOX_UID, type Isolation, type SandboxLimits } from './grader-options';

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
  /**
   * The service runs as root (default here): bwrap needs no user namespace and setpriv drops to
   * the real uid 65534. Otherwise a user namespace maps the service user to 65534 inside.
   */
  privileged?: boolean;
}

/** Pool mode: a warm interpreter that runs grader.py once its job's locale arrives on stdin. */
export const WARM_PYTHON_ARGS = ['-S', '-u', '-m', 'shellgrade_grader.warm'];

/** Where things appear inside the bwrap sandbox. */
const JOB_MOUNT = '/job';
const HELPER_MOUNT = '/opt/shellgrade/python';
const SYSTEM_TOP_DIRS = ['/bin', '/lib', '/lib64', '/sbin'];
const ETC_FILES = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/passwd', '/etc/group', '/etc/nsswitch.conf', '/etc/localtime'];

export const GRADER_FILES = {
  script: 'grader.py',
  statement: 'statement.html',
  question: 'question.tar.gz',
  submission: 'submitted.tar.gz',
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
  const inner = [...prlimitArgs(input.limits), '--', input.python, ...(input.pythonArgs ?? graderArgs)];
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: jobPath,
    TMPDIR: sandboxed ? '/tmp' : input.jobDir,
    LANG: 'C.UTF-8',
    PYTHONPATH: sandboxed ? HELPER_MOUNT : input.helperLibDir,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
    SG_ISOLATION: input.isolation,
  };
  const privileged = input.privileged ?? true;
  // The autogroup is reniced before setpriv drops CAP_SYS_ADMIN: without it the kernel accepts
  // one autogroup write per 100 ms machine-wide, fewer than the gradings per second under load.
  let argv = sandboxed
    ? [input.bwrapPath, ...bwrapArgs(input, env, privileged), '--', ...deprioritize, ...(privileged ? dropPrivileges() : []), ...inner]
    : [...deprioritize, ...inner];
  if (input.niceness) argv = ['/usr/bin/nice', '-n', String(input.niceness), ...argv];
  if (input.wallClockSeconds !== undefined) {
    argv = ['/usr/bin/timeout', '--signal=KILL', String(input.wallClockSeconds), ...argv];
  }
  return { file: argv[0], args: argv.slice(1), env: sandboxed ? {} : env, cwd: input.jobDir };
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

function prlimitArgs(l: SandboxLimits): string[] {
  return [
    '/usr/bin/prlimit',
    // soft < hard: the soft limit delivers SIGXCPU (a nameable cause) before the hard SIGKILL
    `--cpu=${l.cpuSeconds}:${l.cpuSeconds + 1}`,
    `--fsize=${l.fileSizeBytes}`,
    `--nproc=${l.processes}`,
    `--as=${l.memoryBytes}`,
    `--nofile=${l.openFiles}`,
    '--core=0',
  ];
}

function dropPrivileges(): string[] {
  return [
    '/usr/bin/setpriv',
    `--reuid=${SANDBOX_UID}`,
    `--regid=${SANDBOX_GID}`,
    '--clear-groups',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
  ];
}

function bwrapArgs(input: SandboxCommandInput, env: Record<string, string>, privileged: boolean): string[] {
  const a = [
    '--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try',
    '--die-with-parent', '--new-session',
    '--ro-bind', '/usr', '/usr',
  ];
  if (!privileged) a.unshift('--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_GID));
  for (const dir of SYSTEM_TOP_DIRS) a.push(...mirror(dir));
  for (const f of ETC_FILES) a.push('--ro-bind-try', f, f);
  a.push(...readOnlyInstall(pythonPrefix(input.python)));
  a.push('--perms', '0755', '--dir', '/opt', '--perms', '0755', '--dir', '/opt/shellgrade');
  a.push('--ro-bind', input.helperLibDir, HELPER_MOUNT);
  a.push('--proc', '/proc', '--dev', '/dev');
  a.push('--size', String(input.limits.tmpBytes), '--perms', '1777', '--tmpfs', '/tmp');
  a.push('--bind', input.jobDir, JOB_MOUNT, '--chdir', JOB_MOUNT, '--clearenv');
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
 * /root is 0700, and the sandbox uid must still reach /root/.pyenv/versions/3.11.7.
 */
function readOnlyInstall(prefix: string): string[] {
  if (prefix === '/usr' || prefix.startsWith('/usr/')) return [];
  const a: string[] = [];
  const parts = prefix.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) a.push('--perms', '0755', '--dir', posix.join('/', ...parts.slice(0, i)));
  a.push('--ro-bind', prefix, prefix);
  return a;
}
