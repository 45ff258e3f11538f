/**
 * Runs a CommandSpec and reports how it ended. Two implementations behind one interface:
 * `async` (spawn, the event loop keeps serving) and `blocking` (spawnSync, the event loop
 * stalls for the whole grading, as the paper's monolith did). A future `pool` mode (warm
 * interpreters) plugs in here.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { CommandSpec } from './sandbox-command';

export interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderrTail: string;
  /** stdout went beyond the cap and was cut. */
  outputOverflow: boolean;
  durationMs: number;
  /** The process could not be started at all (ENOENT...). */
  spawnError?: string;
}

export interface ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome>;
}

const STDERR_TAIL_BYTES = 4096;
/** After the child exits, how long to wait for its pipes (a stray grandchild may hold them). */
const PIPE_GRACE_MS = 500;

const tail = (s: string) => (s.length > STDERR_TAIL_BYTES ? s.slice(-STDERR_TAIL_BYTES) : s);

export class AsyncRunner implements ProcessRunner {
  run(cmd: CommandSpec, timeoutMs: number, maxOutputBytes: number): Promise<RunOutcome> {
    const started = Date.now();
    return new Promise((resolve) => {
      // detached: the child leads a new process group, so the timeout can kill all of it.
      const child = spawn(cmd.file, cmd.args, { cwd: cmd.cwd, env: cmd.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let outBytes = 0;
      let overflow = false;
      let err = '';
      let timedOut = false;
      let settled = false;
      let exit: { code: number | null; signal: string | null } | undefined;

      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, timeoutMs);

      child.stdout.on('data', (chunk: Buffer) => {
        if (overflow) return;
        outBytes += chunk.length;
        if (outBytes > maxOutputBytes) {
          overflow = true;
          killGroup();
          return;
        }
        out.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        err = tail(err + chunk.toString('utf8'));
      });

      const finish = (spawnError?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        killGroup(); // leftovers of a grader that exited but left children behind
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({
          exitCode: exit?.code ?? null,
          signal: exit?.signal ?? null,
          timedOut,
          stdout: Buffer.concat(out).toString('utf8'),
          stderrTail: err,
          outputOverflow: overflow,
          durationMs: Date.now() - started,
          spawnError,
        });
      };
      child.on('error', (e) => finish(e.message));
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        setTimeout(() => finish(), PIPE_GRACE_MS).unref();
      });
      child.on('close', () => finish());
    });
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
