/**
 * The Grader port implemented with a sandboxed Python process per job (docs/design.md: The sandbox):
 * validate the archive in memory, write the inputs to the job's folder, run the grader under
 * limits and isolation, parse its JSON line, and always end the job (its folder removed, or a
 * zygote worker's emptied for the worker's next grading).
 * How the process is started (async, blocking, pool, zygote) is the JobRunner the wiring
 * chose (job-runner.ts); this path is the same for all of them. How the grader's output is read
 * (its JSON line, the archive refusals, the bounds of its feedback) is grading-output.ts.
 */
import { writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { DomainError, type Grader, type GradingJob, type GradingResult } from '@shellgrade/domain';
import { ATTR, SPAN, gradingProcessAttributes, withSpan } from '@shellgrade/telemetry';
import { type ArchiveEntry, validateArchive } from './validate-archive';
import type { GraderOptions, SandboxLimits } from './grader-options';
import type { GradingCgroups } from './grading-cgroups';
import type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
import { GRADER_CODE_FILE, GraderBytecode } from './grader-bytecode';
import { JobSandbox } from './job-sandbox';
import { GRADER_FILES } from './sandbox-command';
import type { RunOutcome } from './run-outcome';
import { ARCHIVE_REFUSED, failed, GradingFailure, parseArchiveRefusal, parseGradingOutput } from './grading-output';

export class SandboxGrader implements Grader {
  private readonly sandbox: JobSandbox;
  private readonly runner: JobRunner;
  /** The global cap on gradings running at once in this process. */
  private readonly slots: pLimit.Limit;
  /** Graders compiled once, for the supervisor (root bwrap) to run without compiling them per grading. */
  private readonly bytecode?: GraderBytecode;

  constructor(
    private readonly opts: GraderOptions,
    runnerFor: JobRunnerFactory,
  ) {
    this.sandbox = new JobSandbox(opts);
    this.slots = pLimit(opts.maxConcurrent);
    this.runner = runnerFor(this.sandbox);
    if (this.sandbox.supervised) this.bytecode = new GraderBytecode(opts.python);
  }

  /** Where this grader's isolation is weaker than docs/design.md's Untrusted input promises (empty: none); see JobSandbox. */
  get isolationShortfalls(): string[] {
    return this.sandbox.isolationShortfalls;
  }

  /** Per-grading control groups, where the machine has them (bwrap isolation only). */
  get cgroups(): GradingCgroups | undefined {
    return this.sandbox.cgroups;
  }

  grade(job: GradingJob): Promise<GradingResult> {
    return this.slots(() => this.gradeNow(job));
  }

  private async gradeNow(job: GradingJob): Promise<GradingResult> {
    // Hostile archives are rejected before anything is written.
    const validated = await withSpan(SPAN.validateArchive, { [ATTR.archiveBytes]: job.submission.length }, () =>
      validateArchive(job.submission, this.opts.archive, this.opts.archiveLimits),
    );
    let slot: JobSlot | undefined;
    try {
      const ready = await withSpan(SPAN.prepareSandbox, {}, async () => {
        slot = await this.runner.open(job);
        writeInputs(slot.dir, job, validated.entries, await this.bytecode?.of(job.graderScript));
        return slot;
      });
      const outcome = await this.traceProcess(job, () => ready.run(this.opts.timeoutMs));
      return interpret(outcome, this.opts.timeoutMs, this.opts.limits, this.opts.isolation === 'bwrap', [ready.dir, this.opts.sandboxRoot]);
    } catch (err) {
      // disk full, sandbox root unwritable...: still a typed failure, never a bare error
      const failure = err instanceof DomainError ? err : failed('the sandbox could not run the grader', {}, { cause: String(err) });
      if (failure instanceof GradingFailure) this.log(job, failure);
      throw failure;
    } finally {
      await slot?.release();
    }
  }

  /** The student reads the message; the server log keeps what is behind it, with the production id. */
  private log(job: GradingJob, failure: GradingFailure): void {
    const who = job.productionId === undefined ? `exercise ${job.exerciseId}` : `production ${job.productionId} (exercise ${job.exerciseId})`;
    (this.opts.log ?? defaultLog)(`grading of ${who} failed: ${failure.message} ${JSON.stringify({ ...failure.details, ...failure.diagnostics })}`);
  }

  /** The grading child process, spawn to exit, as one span (a no-op without the tracing SDK). */
  private traceProcess(job: GradingJob, run: () => Promise<RunOutcome>): Promise<RunOutcome> {
    return withSpan(SPAN.gradingProcess, { [ATTR.exerciseId]: job.exerciseId, [ATTR.graderExec]: this.runner.mode }, async (span) => {
      const outcome = await run();
      span.setAttributes(gradingProcessAttributes({ exitCode: outcome.exitCode }));
      return outcome;
    });
  }

  /** Stops what the runner keeps warm and removes this process's cgroup parents. */
  async close(): Promise<void> {
    await this.runner.close();
    await this.sandbox.close();
  }
}

/**
 * The inputs, written synchronously into an empty folder: six small files into the page cache take ~0.1 ms of the event
 * loop, where fs/promises paid three thread-pool round trips and a FileHandle per file — about 1 ms
 * more CPU per grading (600 job folders made, filled and removed on this host's ext4:
 * 1.5–1.8 ms of CPU each through fs/promises, 0.4–0.5 ms synchronously).
 */
function writeInputs(jobDir: string, job: GradingJob, entries: ArchiveEntry[], graderCode: Buffer | undefined): void {
  const files: [string, string | Buffer][] = [
    [GRADER_FILES.submissionManifest, JSON.stringify(entries)],
    [GRADER_FILES.script, job.graderScript],
    [GRADER_FILES.statement, job.statementHtml],
    [GRADER_FILES.question, job.questionArchive],
    [GRADER_FILES.submission, job.submission],
    ...(graderCode ? [[GRADER_CODE_FILE, graderCode] as [string, Buffer]] : []),
  ];
  for (const [name, data] of files) writeFileSync(join(jobDir, name), data, { mode: 0o644 });
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
