/**
 * The Grader port implemented with a sandboxed Python process per job (DESIGN §3, §8):
 * validate the archive in memory, write the four inputs to a fresh job directory, run the
 * grader under limits and isolation, parse its JSON line, and always remove the directory.
 * Execution modes: async (spawn), blocking (spawnSync), pool (warm one-shot sandboxes) and
 * zygote (long-lived sandboxes forking an isolated job per grading).
 */
import { accessSync, constants, mkdirSync, mkdtempSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import { basename, join } from 'node:path';
import pLimit from 'p-limit';
import { DomainError, type Grader, type GradingJob, type GradingResult } from '@shellgrade/domain';
import { ATTR, SPAN, gradingProcessAttributes, withSpan } from '@shellgrade/telemetry';
import { type ArchiveEntry, validateArchive } from './validate-archive';
import { helperLibDir } from './assets';
import type { GraderOptions, SandboxLimits } from './grader-options';
import { GradingCgroups, type JobCgroup } from './grading-cgroups';
import { buildSandboxCommand, GRADER_FILES, WARM_PYTHON_ARGS, ZYGOTE_PYTHON_ARGS } from './sandbox-command';
import { AsyncRunner, BlockingRunner, type ProcessRunner } from './process-runner';
import type { RunOutcome } from './run-outcome';
import { ARCHIVE_REFUSED, failed, GradingFailure, parseArchiveRefusal, parseGradingOutput } from './grading-output';
import { WarmPool } from './warm-pool';
import { ZygotePool } from './zygote-pool';
import { buildSeccompFilter } from './seccomp';
import { ownDirName, prepareSandboxRoot, sweepDeadOwners } from './job-dirs';


export class SandboxGrader implements Grader {
  private readonly limits: SandboxLimits;
  private readonly runner?: ProcessRunner;
  private readonly pool?: WarmPool;
  private readonly zygotes?: ZygotePool;
  private readonly helperLib: string;
  private readonly bwrapPath: string;
  private readonly maxOutputBytes: number;
  /** <sandboxRoot>/p<pid>: this process's job directories. */
  private readonly ownRoot: string;
  /** Root can drop to the real uid 65534; another user runs bwrap in a user namespace. */
  private readonly privileged = process.getuid?.() === 0;
  /** Per-grading control groups, where the machine has them (bwrap isolation only). */
  readonly cgroups?: GradingCgroups;
  private readonly cgroupOf = new Map<string, JobCgroup>();
  /** The system-call filter of the grader and student sandboxes (root bwrap only: elsewhere there is no supervisor to load it). */
  private readonly seccompFilter?: string;
  /**
   * Where this grader's isolation is weaker than DESIGN §8 promises, in words an operator acts on
   * (empty: none). The wiring keeps such a grader on loopback unless the operator accepts it.
   */
  readonly isolationShortfalls: string[] = [];
  /** The global cap on gradings running at once in this process. */
  private readonly slots: pLimit.Limit;

  constructor(private readonly opts: GraderOptions) {
    this.limits = opts.limits;
    this.helperLib = opts.helperLibDir ?? helperLibDir();
    this.bwrapPath = opts.bwrapPath ?? '/usr/bin/bwrap';
    this.maxOutputBytes = opts.maxOutputBytes;
    requireExecutable(opts.python, 'the grader Python interpreter (SG_PYTHON)');
    requireExecutable('/usr/bin/prlimit', 'prlimit (apt-get install util-linux)');
    if (opts.isolation === 'bwrap') {
      requireExecutable(this.bwrapPath, 'bubblewrap (apt-get install bubblewrap, or set the spec\'s grader.isolation: none)');
      if (this.privileged) requireExecutable('/usr/bin/setpriv', 'setpriv (apt-get install util-linux)');
    }
    prepareSandboxRoot(opts.sandboxRoot);
    if (opts.isolation === 'bwrap' && this.privileged) this.seccompFilter = buildSeccompFilter(opts.sandboxRoot);
    sweepDeadOwners(opts.sandboxRoot); // job dirs a crashed process could not remove
    this.ownRoot = join(opts.sandboxRoot, ownDirName());
    this.slots = pLimit(opts.maxConcurrent);
    if (opts.isolation === 'bwrap' && this.privileged && opts.cgroups !== 'off') this.cgroups = GradingCgroups.detect();
    this.isolationShortfalls = isolationShortfalls(opts, this.privileged, this.cgroups !== undefined);
    if (opts.exec === 'zygote') {
      if (opts.isolation !== 'bwrap' || !this.privileged) {
        throw new Error('grader exec zygote needs isolation bwrap and a service running as root (it forks jobs into namespaces of their own)');
      }
      const zygote = { cgroupParents: this.cgroups?.controllers ?? [] };
      this.zygotes = new ZygotePool(opts.maxConcurrent, {
        // synchronous: the pool counts its workers as it starts them
        makeInbox: () => {
          mkdirSync(this.ownRoot, { recursive: true, mode: 0o700 });
          return mkdtempSync(join(this.ownRoot, 'zygote-'));
        },
        removeInbox: (dir) => removeJobDir(dir),
        command: (inbox) => this.command(inbox, 'en', ZYGOTE_PYTHON_ARGS, zygote),
        maxOutputBytes: this.maxOutputBytes,
      });
      this.zygotes.warm(opts.poolSize);
    } else if (opts.exec === 'pool') {
      this.pool = new WarmPool(opts.poolSize, {
        makeDir: () => this.makeJobDir('warm'),
        command: (dir) => this.command(dir, 'en', WARM_PYTHON_ARGS),
        removeDir: (dir) => this.removeJobDir(dir),
        maxOutputBytes: this.maxOutputBytes,
      });
      this.pool.refill();
    } else {
      this.runner = opts.exec === 'blocking' ? new BlockingRunner() : new AsyncRunner();
    }
  }

  grade(job: GradingJob): Promise<GradingResult> {
    return this.slots(() => this.gradeNow(job));
  }

  private async gradeNow(job: GradingJob): Promise<GradingResult> {
    // Hostile archives are rejected before anything is written.
    const validated = await withSpan(SPAN.validateArchive, { [ATTR.archiveBytes]: job.submission.length }, () =>
      validateArchive(job.submission, this.opts.archive, this.opts.archiveLimits),
    );
    const inputs = { job, entries: validated.entries };
    let jobDir: string | undefined;
    try {
      let outcome: RunOutcome;
      if (this.zygotes) {
        const worker = await this.zygotes.acquire();
        try {
          const dir = await withSpan(SPAN.prepareSandbox, {}, async () => {
            jobDir = await this.makeJobDir(String(job.exerciseId), worker.inbox);
            await this.writeInputs(jobDir, inputs);
            return jobDir;
          });
          const zygoteJob = { name: basename(dir), locale: safeLocale(job.locale), cgroup: this.cgroupOf.has(dir) ? basename(dir) : undefined };
          outcome = await this.traceProcess(job, () => worker.run(zygoteJob, this.opts.timeoutMs));
        } finally {
          worker.release();
        }
      } else if (this.pool) {
        const slot = await withSpan(SPAN.prepareSandbox, {}, async () => {
          const acquired = await this.pool!.acquire();
          jobDir = acquired.dir;
          await this.writeInputs(acquired.dir, inputs);
          return acquired;
        });
        outcome = await this.traceProcess(job, () => slot.process.start(this.opts.timeoutMs, `${safeLocale(job.locale)}\n`));
      } else {
        const dir = await withSpan(SPAN.prepareSandbox, {}, async () => {
          jobDir = await this.makeJobDir(String(job.exerciseId));
          await this.writeInputs(jobDir, inputs);
          return jobDir;
        });
        outcome = await this.traceProcess(job, () =>
          (this.runner as ProcessRunner).run(this.command(dir, job.locale), this.opts.timeoutMs, this.maxOutputBytes),
        );
      }
      return interpret(outcome, this.opts.timeoutMs, this.limits, this.opts.isolation === 'bwrap', jobDir ? [jobDir, this.opts.sandboxRoot] : []);
    } catch (err) {
      // disk full, sandbox root unwritable...: still a typed failure, never a bare error
      const failure = err instanceof DomainError ? err : failed('the sandbox could not run the grader', {}, { cause: String(err) });
      if (failure instanceof GradingFailure) this.log(job, failure);
      throw failure;
    } finally {
      if (jobDir) await this.removeJobDir(jobDir);
    }
  }

  /** The student reads the message; the server log keeps what is behind it, with the production id. */
  private log(job: GradingJob, failure: GradingFailure): void {
    const who = job.productionId === undefined ? `exercise ${job.exerciseId}` : `production ${job.productionId} (exercise ${job.exerciseId})`;
    (this.opts.log ?? defaultLog)(`grading of ${who} failed: ${failure.message} ${JSON.stringify({ ...failure.details, ...failure.diagnostics })}`);
  }

  /** The grading child process, spawn to exit, as one span (a no-op without the tracing SDK). */
  private traceProcess(job: GradingJob, run: () => Promise<RunOutcome>): Promise<RunOutcome> {
    return withSpan(SPAN.gradingProcess, { [ATTR.exerciseId]: job.exerciseId, [ATTR.graderExec]: this.opts.exec }, async (span) => {
      const outcome = await run();
      span.setAttributes(gradingProcessAttributes({ exitCode: outcome.exitCode }));
      return outcome;
    });
  }

  /** Stops the warm processes of the pool and zygote modes and removes this process's cgroup parents. */
  async close(): Promise<void> {
    await this.pool?.close();
    await this.zygotes?.close();
    await this.cgroups?.dispose();
  }

  /** A job's folder under this process's root, or under a zygote worker's inbox. */
  private async makeJobDir(tag: string, parent = this.ownRoot): Promise<string> {
    await mkdir(this.ownRoot, { recursive: true, mode: 0o700 }); // (re)created: survives a tmp cleaner
    const dir = await mkdtemp(join(parent, `job-${tag}-`));
    // A root sandbox reads its inputs from here and works in a tmpfs; a user-namespace one
    // (non-root service) works here directly, as the service user mapped to nobody.
    if (this.cgroups) {
      const l = this.limits;
      this.cgroupOf.set(dir, await this.cgroups.create(basename(dir), { pids: l.processes, memoryBytes: l.gradingMemoryBytes }));
    }
    return dir;
  }

  private async removeJobDir(dir: string): Promise<void> {
    const cgroup = this.cgroupOf.get(dir);
    this.cgroupOf.delete(dir);
    await Promise.all([removeJobDir(dir), cgroup?.remove()]);
  }

  private async writeInputs(jobDir: string, { job, entries }: { job: GradingJob; entries: ArchiveEntry[] }): Promise<void> {
    await Promise.all([
      writeFile(join(jobDir, GRADER_FILES.submissionManifest), JSON.stringify(entries), { mode: 0o644 }),
      writeFile(join(jobDir, GRADER_FILES.script), job.graderScript, { mode: 0o644 }),
      writeFile(join(jobDir, GRADER_FILES.statement), job.statementHtml, { mode: 0o644 }),
      writeFile(join(jobDir, GRADER_FILES.question), job.questionArchive, { mode: 0o644 }),
      writeFile(join(jobDir, GRADER_FILES.submission), job.submission, { mode: 0o644 }),
    ]);
  }

  private command(jobDir: string, locale: string, pythonArgs?: string[], zygote?: { cgroupParents: string[] }) {
    return buildSandboxCommand({
      isolation: this.opts.isolation,
      bwrapPath: this.bwrapPath,
      python: this.opts.python,
      helperLibDir: this.helperLib,
      jobDir,
      locale: safeLocale(locale),
      limits: this.limits,
      wallClockSeconds: this.opts.exec === 'blocking' ? Math.max(0.1, this.opts.timeoutMs / 1000) : undefined,
      pythonArgs,
      privileged: this.privileged,
      niceness: this.opts.niceness,
      cgroupProcs: this.cgroupOf.get(jobDir)?.procsFiles,
      zygote,
      seccompFilter: this.seccompFilter,
    });
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

async function removeJobDir(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(async () => {
      // Not root (user-namespace mode): a folder the grader made unwritable (chmod 000) blocks
      // rm until its owner gives the permissions back.
      await restoreOwnerAccess(dir);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    });
  } catch (err) {
    // The grading outcome stands; the leftover is reported instead of masking it.
    process.emitWarning(`could not remove sandbox job directory ${dir}: ${String(err)}`);
  }
}

async function restoreOwnerAccess(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await restoreOwnerAccess(join(dir, e.name));
}

/** Limits whose signal names the cause; under bwrap a signal death shows as exit 128+n. */
const LIMIT_SIGNALS: Record<string, (l: SandboxLimits) => string> = {
  SIGXCPU: (l) => `the CPU time limit (${l.cpuSeconds} s)`,
  SIGXFSZ: (l) => `the file size limit (${l.fileSizeBytes} bytes)`,
};

function signalOf(o: RunOutcome, viaBwrap: boolean): string | null {
  if (o.signal) return o.signal;
  if (!viaBwrap || o.exitCode === null || o.exitCode <= 128) return null;
  const n = o.exitCode - 128;
  return Object.entries(osConstants.signals).find(([, v]) => v === n)?.[0] ?? null;
}

/**
 * Messages name the cause in words a student understands; the grader's stderr (its tracebacks,
 * its paths) and the host's errors stay in the diagnostics, for the server log.
 */
function interpret(o: RunOutcome, timeoutMs: number, limits: SandboxLimits, viaBwrap: boolean, hostPaths: string[]): GradingResult {
  const signal = signalOf(o, viaBwrap);
  const facts = { exitCode: o.exitCode, signal, timedOut: o.timedOut, durationMs: o.durationMs, stderrTail: o.stderrTail };
  if (o.spawnError) throw failed('the grader could not be started', facts, { spawnError: o.spawnError });
  if (o.timedOut) throw failed(`the grading was stopped after the ${timeoutMs / 1000} s time limit`, facts);
  if (o.outputOverflow) throw failed('the grader printed too much output', facts);
  if (o.exitCode === ARCHIVE_REFUSED) throw parseArchiveRefusal(o.stdout, facts);
  if (o.exitCode !== 0) {
    const limit = signal ? LIMIT_SIGNALS[signal]?.(limits) : undefined;
    const how = signal ? `was killed by ${signal}${limit ? `: it exceeded ${limit}` : ''}` : `stopped with an error (exit code ${o.exitCode})`;
    throw failed(`the grader ${how}`, facts);
  }
  return parseGradingOutput(o.stdout, facts, hostPaths);
}

const defaultLog = (line: string) => console.error(line);

/** The locale is a command-line argument: keep it to a plain tag like "fr" or "en_US". */
function safeLocale(locale: string): string {
  return /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$/.test(locale) ? locale : 'en';
}

function requireExecutable(path: string, what: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`${what} not found or not executable at ${path}`);
  }
}
