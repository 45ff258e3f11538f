/**
 * The host side of every sandboxed grading, whatever runs it: the checks that the tools are
 * there, this process's job folders (and their per-grading control groups), the system-call
 * filter, and the sandbox command line (docs/design.md: The sandbox, Untrusted input). Job
 * runners build on it; what only one runner needs (a zygote worker's folders) is the runner's.
 */
import { accessSync, constants, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { helperLibDir } from './assets';
import type { GraderOptions, SandboxLimits } from './grader-options';
import { GradingCgroups, type JobCgroup } from './grading-cgroups';
import { refreshHelperBytecode } from './helper-bytecode';
import { ownDirName, prepareSandboxRoot, sweepDeadOwners } from './job-dirs';
import { buildSandboxCommand, type CommandSpec } from './sandbox-command';
import { buildSandboxLauncher } from './sandbox-launcher';
import { buildSeccompFilter } from './seccomp';

/** What a runner adds to the plain command: its interpreter module, a wall-clock bound, a zygote's bindings. */
export interface CommandExtras {
  pythonArgs?: string[];
  wallClockSeconds?: number;
  zygote?: { cgroupParents: string[] };
}

export class JobSandbox {
  readonly limits: SandboxLimits;
  /** Root can drop to the real uid 65534; another user runs bwrap in a user namespace. */
  readonly privileged = process.getuid?.() === 0;
  /** A root bwrap sandbox: its first process is the grading job (supervise.py), which starts the student supervisor and runs grader.py itself. */
  get supervised(): boolean {
    return this.opts.isolation === 'bwrap' && this.privileged;
  }
  /** Per-grading control groups, where the machine has them (bwrap isolation only). */
  readonly cgroups?: GradingCgroups;
  /**
   * Where this grader's isolation is weaker than docs/design.md's Untrusted input promises, in words an operator acts on
   * (empty: none). The wiring keeps such a grader on loopback unless the operator accepts it.
   */
  readonly isolationShortfalls: string[];
  private readonly helperLib: string;
  private readonly bwrapPath: string;
  /** <sandboxRoot>/p<pid>: this process's job directories (a runner that keeps folders of its own makes them here too). */
  readonly ownRoot: string;
  private readonly cgroupOf = new Map<string, JobCgroup>();
  /** The system-call filter of the grader and student sandboxes (root bwrap only: elsewhere there is no supervisor to load it). */
  private readonly seccompFilter?: string;
  /** The student sandbox's launcher (root bwrap only, as the filter). */
  private readonly sandboxLauncher?: string;

  constructor(readonly opts: GraderOptions) {
    this.limits = opts.limits;
    this.helperLib = opts.helperLibDir ?? helperLibDir();
    this.bwrapPath = opts.bwrapPath ?? '/usr/bin/bwrap';
    requireExecutable(opts.python, 'the grader Python interpreter (SG_PYTHON)');
    requireExecutable('/usr/bin/prlimit', 'prlimit (apt-get install util-linux)');
    if (opts.isolation === 'bwrap') {
      requireExecutable(this.bwrapPath, 'bubblewrap (apt-get install bubblewrap, or set the spec\'s grader.isolation: none)');
    }
    prepareSandboxRoot(opts.sandboxRoot);
    // Stale bytecode would be compiled again by every grading (read-only in the sandbox): refreshed once here.
    const stale = refreshHelperBytecode(opts.python, this.helperLib);
    if (stale) process.emitWarning(stale);
    if (this.supervised) {
      this.seccompFilter = buildSeccompFilter(opts.sandboxRoot);
      this.sandboxLauncher = buildSandboxLauncher(opts.sandboxRoot);
    }
    sweepDeadOwners(opts.sandboxRoot); // job dirs a crashed process could not remove
    this.ownRoot = join(opts.sandboxRoot, ownDirName());
    if (this.supervised && opts.cgroups !== 'off') this.cgroups = GradingCgroups.detect();
    this.isolationShortfalls = isolationShortfalls(opts, this.privileged, this.cgroups !== undefined);
  }

  /** A job's folder under this process's root, and its control groups. */
  async makeJobDir(tag: string): Promise<string> {
    await mkdir(this.ownRoot, { recursive: true, mode: 0o700 }); // (re)created: survives a tmp cleaner
    const dir = await mkdtemp(join(this.ownRoot, `job-${tag}-`));
    // A root sandbox reads its inputs from here and works in a tmpfs; a user-namespace one
    // (non-root service) works here directly, as the service user mapped to nobody.
    await this.attachCgroup(dir);
    return dir;
  }

  /**
   * Gives `dir` this grading's control groups, where the machine has them (a folder made by
   * makeJobDir has them already; a runner whose folder outlives its gradings calls this per grading).
   */
  async attachCgroup(dir: string): Promise<JobCgroup | undefined> {
    if (!this.cgroups) return undefined;
    const l = this.limits;
    const cgroup = await this.cgroups.acquire({ pids: l.processes, memoryBytes: l.gradingMemoryBytes });
    this.cgroupOf.set(dir, cgroup);
    return cgroup;
  }

  /** Releases the control groups `dir`'s grading held (none: nothing to do). */
  async releaseCgroup(dir: string): Promise<void> {
    await this.detachCgroup(dir)?.release();
  }

  /** The control groups `dir`'s grading held, no longer its (to release). */
  private detachCgroup(dir: string): JobCgroup | undefined {
    const cgroup = this.cgroupOf.get(dir);
    this.cgroupOf.delete(dir);
    return cgroup;
  }

  /** Removes a folder made under ownRoot and releases its control groups, if any; a leftover is reported, never thrown. */
  async removeJobDir(dir: string): Promise<void> {
    const cgroup = this.detachCgroup(dir);
    await Promise.all([this.supervised ? removeInputsDir(dir) : removeDir(dir), cgroup?.release()]);
  }

  command(jobDir: string, locale: string, extras: CommandExtras = {}): CommandSpec {
    return buildSandboxCommand({
      isolation: this.opts.isolation,
      bwrapPath: this.bwrapPath,
      python: this.opts.python,
      helperLibDir: this.helperLib,
      jobDir,
      locale: safeLocale(locale),
      limits: this.limits,
      wallClockSeconds: extras.wallClockSeconds,
      pythonArgs: extras.pythonArgs,
      privileged: this.privileged,
      niceness: this.opts.niceness,
      cgroupProcs: this.cgroupOf.get(jobDir)?.procsFiles,
      zygote: extras.zygote,
      seccompFilter: this.seccompFilter,
      sandboxLauncher: this.sandboxLauncher,
    });
  }

  /** Removes this process's control-group parents. */
  async close(): Promise<void> {
    await this.cgroups?.dispose();
  }
}

function isolationShortfalls(opts: GraderOptions, privileged: boolean, perGradingCgroups: boolean): string[] {
  if (opts.isolation === 'none') return ['grader.isolation none runs student code without any sandbox'];
  if (!privileged) {
    return ['the service does not run as root: bubblewrap runs in a user namespace, student scripts run beside the grader (no sandbox of their own, no system-call filter)'];
  }
  if (!perGradingCgroups) {
    const why = opts.cgroups === 'off' ? 'grader.cgroups is off' : 'no pids/memory control group can be created here (cgroup v1 groups as root, or a delegated v2 subtree)';
    return [`no per-grading control groups (${why}): processes and memory are bounded per process and per uid only, so one grading can starve the others`];
  }
  return [];
}

async function removeDir(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(async () => {
      // Not root (user-namespace mode): a folder the grader made unwritable (chmod 000) blocks
      // rm until its owner gives the permissions back.
      await restoreOwnerAccess(dir);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    });
  } catch (err) {
    reportLeftover(dir, err);
  }
}

/** The grading outcome stands; a folder that could not be removed is reported instead of masking it. */
export function reportLeftover(dir: string, err: unknown): void {
  process.emitWarning(`could not remove sandbox job directory ${dir}: ${String(err)}`);
}

/**
 * A root sandbox's job folder holds only its inputs (the grader works in a tmpfs): removed
 * synchronously, a few unlinks, where rm's walk through the thread pool cost ~0.5 ms more CPU per
 * grading. A user-namespace grader works in its folder, which may hold many files: async.
 */
function removeInputsDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (err) {
    reportLeftover(dir, err);
  }
}

async function restoreOwnerAccess(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await restoreOwnerAccess(join(dir, e.name));
}

/** The locale is a command-line argument: keep it to a plain tag like "fr" or "en_US". */
export function safeLocale(locale: string): string {
  return /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$/.test(locale) ? locale : 'en';
}

function requireExecutable(path: string, what: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`${what} not found or not executable at ${path}`);
  }
}
