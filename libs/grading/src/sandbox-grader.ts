/**
 * The Grader port implemented with a sandboxed Python process per job (DESIGN §3, §8):
 * validate the archive in memory, write the inputs to the job's folder, run the grader under
 * limits and isolation, parse its JSON line, and always end the job (its folder removed, or a
 * zygote worker's emptied for the worker's next grading).
 * How the process is started (async, blocking, pool, zygote) is the JobRunner the wiring
 * chose (job-runner.ts); this path is the same for all of them. At the end of the file: how a
 * grading's output is read (its JSON line, the archive refusals, the bounds of its feedback).
 */
import { writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { z } from 'zod';
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

  /** Where this grader's isolation is weaker than DESIGN §8 promises (empty: none); see JobSandbox. */
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
 * more CPU per grading (issue 31; 600 job folders made, filled and removed on this host's ext4:
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

/**
 * Parses and validates what a grading script prints (DESIGN §3, grading contract), and bounds
 * what reaches a student: feedback texts quote student files and output, so they are cut to a
 * fixed size and stripped of the host paths of the job (DESIGN §8).
 */

export const gradingResultSchema = z.object({
  grade: z.number().int().min(0).max(100),
  comment: z.array(
    z.object({
      numQ: z.number().int(),
      verif: z.string(),
      status: z.enum(['OK', 'NOT OK', 'not tested']),
      expl: z.string(),
    }),
  ),
});

/** Same bounds as the helper library's (shellgrade_grader/feedback.py), for graders that skip it. */
export const FEEDBACK_BOUNDS = { verif: 200, expl: 500, items: 200 } as const;

/**
 * A failed grading. `message` and `details` are what a student may read (they end up in the
 * production's failure reason); `diagnostics` (the grader's stderr, its raw output, host errors)
 * are for the server log only.
 */
export class GradingFailure extends DomainError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly diagnostics: Record<string, unknown> = {},
  ) {
    super('grading-failed', message, details);
  }
}

/** Facts of a grader run, split between the student-safe details and the log-only diagnostics. */
export interface RunFacts {
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  durationMs?: number;
  [diagnostic: string]: unknown;
}

export function failed(message: string, facts: RunFacts, diagnostics: Record<string, unknown> = {}): GradingFailure {
  const { exitCode, signal, timedOut, durationMs, ...rest } = facts;
  const details = Object.fromEntries(Object.entries({ exitCode, signal, timedOut, durationMs }).filter(([, v]) => v !== undefined));
  return new GradingFailure(message, details, { ...rest, ...diagnostics });
}

/** The last non-empty stdout line: where a grader prints its result (or the helper library its refusal). */
const lastLine = (stdout: string): string | undefined =>
  stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);

/** The result is the last non-empty stdout line; anything else is a grader failure. */
export function parseGradingOutput(stdout: string, facts: RunFacts, hostPaths: string[] = []): GradingResult {
  const last = lastLine(stdout);
  if (last === undefined) throw failed('the grader printed nothing', facts);
  const stdoutTail = last.slice(-500);
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    throw failed('the grader printed a result that is not valid JSON', facts, { stdoutTail });
  }
  const parsed = gradingResultSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw failed(`the grader printed a result that breaks the contract: ${why.slice(0, 300)}`, facts, { stdoutTail });
  }
  const shown = (text: string, limit: number) => bound(hidePaths(text, hostPaths), limit);
  return {
    grade: parsed.data.grade,
    comment: parsed.data.comment.slice(0, FEEDBACK_BOUNDS.items).map((c) => ({
      ...c,
      verif: shown(c.verif, FEEDBACK_BOUNDS.verif),
      expl: shown(c.expl, FEEDBACK_BOUNDS.expl),
    })),
  };
}

/** The grader's exit status for a submission that reads differently in the sandbox than it was validated (extract.py refuse_archive). */
export const ARCHIVE_REFUSED = 65;

const archiveRefusalSchema = z.object({ archive_refused: z.object({ reason: z.string().max(40), message: z.string().max(300) }) });

/** The student's 422, like any archive the validator refuses; a status 65 without the refusal line is a failed grading. */
export function parseArchiveRefusal(stdout: string, facts: RunFacts): DomainError {
  let json: unknown;
  try {
    json = JSON.parse(lastLine(stdout) ?? '');
  } catch {
    json = undefined;
  }
  const refusal = archiveRefusalSchema.safeParse(json);
  if (!refusal.success) return failed(`the grader stopped with an error (exit code ${ARCHIVE_REFUSED})`, facts);
  const { reason, message } = refusal.data.archive_refused;
  return new DomainError('invalid-archive', `the archive was refused: ${message}; create it with a plain \`tar czf\``, { reason });
}

/** Replaces host paths (the job directory under isolation none) with the sandbox's "/job". */
function hidePaths(text: string, hostPaths: string[]): string {
  return hostPaths.reduce((t, p) => (p.length > 1 ? t.split(p).join('/job') : t), text);
}

function bound(text: string, limit: number): string {
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}
