/**
 * Runs a CommandSpec and reports how it ended. Two implementations behind one interface:
 * `async` (spawn, the event loop keeps serving) and `blocking` (spawnSync, the event loop
 * stalls for the whole grading, as the paper's monolith did). `pool` mode starts its
 * processes ahead of the job instead (warm-pool.ts) and yields the same RunOutcome.
 */
import { spawnSync } from 'node:child_process';
import type { CommandSpec } from './sandbox-command';
import { SandboxProcess } from './sandbox-process';
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
