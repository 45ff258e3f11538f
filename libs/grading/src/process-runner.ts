/**
 * The `async` and `blocking` job runners: a fresh sandbox per grading, started once its inputs
 * are written. `async` spawns (the event loop keeps serving), `blocking` uses spawnSync (the
 * event loop stalls for the whole grading, as the paper's monolith did). `pool` starts its
 * processes ahead of the job instead (warm-pool.ts), `zygote` forks them (zygote-pool.ts).
 * Both, and the warm pool, run their grader as a SandboxProcess (below).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { ExecMode } from './grader-options';
import type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
import type { CommandExtras, JobSandbox } from './job-sandbox';
import type { CommandSpec } from './sandbox-command';
import type { RunOutcome } from './run-outcome';

export interface ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome>;
}

const STDERR_TAIL_BYTES = 4096;

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

/** After the child exits, how long to wait for its pipes (a stray grandchild may hold them). */
const PIPE_GRACE_MS = 500;

/**
 * One spawned grader process in its own process group. Output is collected from spawn, but the
 * wall-clock timeout is armed only by start(): a warm (pool) process can be spawned ahead of
 * its job and released later by writing the job's line on its stdin.
 */

export class SandboxProcess {
  private readonly child: ChildProcess;
  private readonly out: Buffer[] = [];
  private outBytes = 0;
  private overflow = false;
  private err = '';
  private timedOut = false;
  private exit: { code: number | null; signal: string | null } | undefined;
  private spawnError: string | undefined;
  private ended = false;
  private readonly endListeners: (() => void)[] = [];

  constructor(
    cmd: CommandSpec,
    private readonly maxOutputBytes: number,
    withStdin = false,
  ) {
    // detached: the child leads a new process group, so the timeout can kill all of it.
    this.child = spawn(cmd.file, cmd.args, { cwd: cmd.cwd, env: cmd.env, detached: true, stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    this.child.stdin?.on('error', () => undefined); // a process that died early closes its stdin
    this.child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.err = (this.err + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.on('error', (e) => {
      this.spawnError = e.message;
      this.end();
    });
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      setTimeout(() => this.end(), PIPE_GRACE_MS).unref();
    });
    this.child.on('close', () => this.end());
  }

  /** True once the process is gone (a warm process that died while idle is useless). */
  get exited(): boolean {
    return this.ended || this.exit !== undefined;
  }

  /** Arms the timeout, optionally sends `input` on stdin, and resolves when the process ends. */
  start(timeoutMs: number, input?: string): Promise<RunOutcome> {
    const started = Date.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timedOut = true;
        this.kill();
      }, timeoutMs);
      this.onEnd(() => {
        clearTimeout(timer);
        resolve(this.outcome(Date.now() - started));
      });
      if (input !== undefined && this.child.stdin && !this.exited) this.child.stdin.end(input);
    });
  }

  /** Kills the whole process group (idempotent). */
  kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  private onStdout(chunk: Buffer): void {
    if (this.overflow) return;
    this.outBytes += chunk.length;
    if (this.outBytes > this.maxOutputBytes) {
      this.overflow = true;
      this.kill();
      return;
    }
    this.out.push(chunk);
  }

  private onEnd(fn: () => void): void {
    if (this.ended) fn();
    else this.endListeners.push(fn);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.kill(); // leftovers of a grader that exited but left children behind
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdin?.destroy();
    for (const fn of this.endListeners.splice(0)) fn();
  }

  private outcome(durationMs: number): RunOutcome {
    return {
      exitCode: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      timedOut: this.timedOut,
      stdout: Buffer.concat(this.out).toString('utf8'),
      stderrTail: this.err,
      outputOverflow: this.overflow,
      durationMs,
      spawnError: this.spawnError,
    };
  }
}
