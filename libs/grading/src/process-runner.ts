/**
 * The `async` and `blocking` job runners: a fresh sandbox per grading, started once its inputs
 * are written. `async` spawns (the event loop keeps serving), `blocking` uses spawnSync (the
 * event loop stalls for the whole grading, as the paper's monolith did). `pool` starts its
 * processes ahead of the job instead (warm-pool.ts), `zygote` forks them (zygote-pool.ts).
 * `async`, like the warm pool, runs its grader as a SandboxProcess (sandbox-process.ts).
 */
import { spawnSync } from 'node:child_process';
import type { ExecMode } from './grader-options';
import type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
import type { CommandExtras, JobSandbox } from './job-sandbox';
import type { CommandSpec } from './sandbox-command';
import { SandboxProcess, STDERR_TAIL_BYTES } from './sandbox-process';
import type { RunOutcome } from './run-outcome';

export interface ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome>;
}

const tail = (s: string) => (s.length > STDERR_TAIL_BYTES ? s.slice(-STDERR_TAIL_BYTES) : s);

export class AsyncRunner implements ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome> {
    return new SandboxProcess(cmd, maxOutputBytes).start(timeoutMs);
  }
}

export class BlockingRunner implements ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome> {
    const started = Date.now();
    // The command is already wrapped in `timeout --signal=KILL` (see buildSandboxCommand);
    // spawnSync's own timeout is a backstop a little later.
    const r = spawnSync(cmd.file, cmd.args, {
      cwd: cmd.cwd,
      env: cmd.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs + 2000,
      killSignal: 'SIGKILL',
      maxBuffer: maxOutputBytes,
    });
    const durationMs = Date.now() - started;
    const error = r.error as NodeJS.ErrnoException | undefined;
    const overflow = error?.code === 'ENOBUFS';
    const timedOut = r.status === 124 || (r.signal === 'SIGKILL' && durationMs >= timeoutMs);
    return Promise.resolve({
      exitCode: r.status,
      signal: r.signal,
      timedOut,
      stdout: r.stdout ? r.stdout.toString('utf8') : '',
      stderrTail: r.stderr ? tail(r.stderr.toString('utf8')) : '',
      outputOverflow: overflow,
      durationMs,
      spawnError: error && !overflow && error.code !== 'ETIMEDOUT' ? error.message : undefined,
    });
  }
}

/** One process per grading, spawned by `processes` on the command `extras` shape. */
class OneShotJobRunner implements JobRunner {
  constructor(
    readonly mode: ExecMode,
    private readonly sandbox: JobSandbox,
    private readonly processes: ProcessRunner,
    private readonly extras: CommandExtras,
  ) {}

  async open(job: { exerciseId: number; locale: string }): Promise<JobSlot> {
    const { sandbox } = this;
    const dir = await sandbox.makeJobDir(String(job.exerciseId));
    const { maxOutputBytes } = sandbox.opts;
    return {
      dir,
      run: (timeoutMs) => this.processes.run(sandbox.command(dir, job.locale, this.extras), timeoutMs, maxOutputBytes),
      release: () => sandbox.removeJobDir(dir),
    };
  }

  async close(): Promise<void> {}
}

/** exec `async`: spawn per grading. */
export const asyncJobRunner: JobRunnerFactory = (sandbox) => new OneShotJobRunner('async', sandbox, new AsyncRunner(), {});

/** exec `blocking`: spawnSync per grading, inside coreutils `timeout` (spawnSync cannot be stopped from JS). */
export const blockingJobRunner: JobRunnerFactory = (sandbox) =>
  new OneShotJobRunner('blocking', sandbox, new BlockingRunner(), { wallClockSeconds: Math.max(0.1, sandbox.opts.timeoutMs / 1000) });
