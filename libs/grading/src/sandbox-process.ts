/**
 * One spawned grader process in its own process group: the building block the `async` runner
 * (process-runner.ts) and the warm pool (warm-pool.ts) both run their grader as. Output is
 * collected from spawn, but the wall-clock timeout is armed only by start(): a warm (pool)
 * process can be spawned ahead of its job and released later by writing the job's line on its
 * stdin. A file of its own so that neither runner imports the other.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { CommandSpec } from './sandbox-command';
import type { RunOutcome } from './run-outcome';

/** How much of a grader's stderr an outcome keeps (the server log's diagnostics). */
export const STDERR_TAIL_BYTES = 4096;
/** After the child exits, how long to wait for its pipes (a stray grandchild may hold them). */
const PIPE_GRACE_MS = 500;

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
