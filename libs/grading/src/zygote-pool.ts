/**
 * `zygote` execution mode: per concurrent grading, one long-lived bwrap sandbox whose
 * interpreter (shellgrade_grader.zygote, stdlib and helpers imported) forks a fresh isolated job
 * per grading — own mount, PID, IPC, UTS and cgroup namespaces, fresh tmpfs, the grading's
 * control groups — instead of starting bwrap and Python per job. A worker runs one job at a
 * time; a job's output arrives on fds 3 and 4, never through the zygote, and ends with a marker
 * the zygote makes only once every process of the job is gone.
 *
 * A worker's folders are its own: its inbox, made when it starts, holds one job folder that its
 * gradings use one at a time and that is emptied after each (its jobs only read it, through a
 * read-only bind they detach), so no folder is made and removed per grading (a mkdtemp and two
 * rmdirs, ~0.3–0.8 ms of the service's CPU); only the control groups are the grading's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
import { reportLeftover, safeLocale, type JobSandbox } from './job-sandbox';
import { ZYGOTE_PYTHON_ARGS, type CommandSpec } from './sandbox-command';
import type { RunOutcome } from './run-outcome';

const STDERR_TAIL_BYTES = 4096;
/** After a kill, how long the zygote has to report the job gone before the whole worker is replaced. */
const KILL_GRACE_MS = 5000;
/**
 * The status of a job whose sandbox could not be set up (zygote.py SETUP_FAILED): the worker is
 * replaced, since what failed (e.g. a control-group parent removed under its bind) would fail again.
 */
const SETUP_FAILED = 125;
/** "\0sg-end-" and 32 hex digits (zygote.py _finish). */
const MARKER_BYTES = 40;
/** A worker's job folder in its inbox (zygote.py NAME allows it). */
const WORKER_JOB_DIR = 'job';

export interface ZygoteJob {
  /** The job's folder name in the worker's inbox (inputs written there beforehand). */
  name: string;
  locale: string;
  /** The grading's control group name (under every hierarchy's parent), if any. */
  cgroup?: string;
}

export interface ZygotePoolDeps {
  /** A fresh inbox folder for a new worker (synchronous: the pool counts its workers without awaiting). */
  makeInbox(): string;
  removeInbox(dir: string): Promise<void>;
  command(inbox: string): CommandSpec;
  maxOutputBytes: number;
}

/** One job's output channel (fd 3 or 4): bytes up to a bound, and whether its end marker came. */
class JobChannel {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** The last bytes seen, kept even past the bound: the end marker is found there. */
  private tail = Buffer.alloc(0);

  constructor(private readonly keep: (chunks: Buffer[], bytes: number) => boolean) {}

  reset(): void {
    this.chunks = [];
    this.bytes = 0;
    this.tail = Buffer.alloc(0);
  }

  /** Takes a chunk; false once the channel holds more than it may. */
  push(chunk: Buffer): boolean {
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-128);
    this.bytes += chunk.length;
    this.chunks.push(chunk);
    const fits = this.keep(this.chunks, this.bytes);
    if (!fits) this.chunks = [];
    return fits;
  }

  endsWith(marker: Buffer): boolean {
    return this.tail.length >= marker.length && this.tail.subarray(-marker.length).equals(marker);
  }

  /** The job's bytes, without the marker. */
  text(marker: Buffer): string {
    const all = Buffer.concat(this.chunks);
    return (all.subarray(-marker.length).equals(marker) ? all.subarray(0, -marker.length) : all).toString('utf8');
  }
}

interface Running {
  timedOut: boolean;
  overflow: boolean;
  status?: { code: number; marker: Buffer };
  finish(outcome: RunOutcome): void;
  started: number;
  killTimer?: NodeJS.Timeout;
}

export class ZygoteWorker {
  private readonly child: ChildProcess;
  private readonly out: JobChannel;
  private readonly err: JobChannel;
  private running: Running | undefined;
  private dead: string | undefined;
  private ownStderr = '';
  /** Set by ZygotePool.acquire: two gradings never get the same worker. */
  claimed = false;

  constructor(
    readonly inbox: string,
    cmd: CommandSpec,
    private readonly maxOutputBytes: number,
  ) {
    // detached: the worker leads its own process group, so replacing it kills all of it.
    this.child = spawn(cmd.file, cmd.args, { cwd: cmd.cwd, env: cmd.env, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] });
    this.out = new JobChannel((_, bytes) => bytes <= this.maxOutputBytes + MARKER_BYTES);
    this.err = new JobChannel((chunks, bytes) => {
      // only the tail of stderr is kept (the server log's diagnostics)
      while (bytes > STDERR_TAIL_BYTES * 2 && chunks.length > 1) bytes -= chunks.shift()!.length;
      return true;
    });
    this.child.stdin?.on('error', () => undefined);
    (this.child.stdio[3] as Readable).on('data', (c: Buffer) => this.onOutput(this.out, c));
    (this.child.stdio[4] as Readable).on('data', (c: Buffer) => this.onOutput(this.err, c));
    // The zygote's own complaints (never a job's): kept to say why it died.
    this.child.stderr?.on('data', (c: Buffer) => {
      this.ownStderr = (this.ownStderr + c.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.onStatus(line));
    this.child.on('error', (e) => this.die(`the grading sandbox could not be started: ${e.message}`));
    this.child.on('exit', (code, signal) => this.die(`the grading sandbox stopped (${signal ?? `exit code ${code}`})${this.ownStderr ? `: ${this.ownStderr.trim()}` : ''}`));
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Taken by a grading (from acquire to release), running or still writing its inputs. */
  get busy(): boolean {
    return this.claimed || this.running !== undefined;
  }

  /** Gives the worker back to the pool once its grading is over (idempotent). */
  release(): void {
    this.claimed = false;
  }

  /** Runs one job (its inputs already in the inbox) and resolves once all of it is gone. */
  run(job: ZygoteJob, timeoutMs: number): Promise<RunOutcome> {
    if (this.running) throw new Error('a zygote worker runs one job at a time');
    const started = Date.now();
    if (this.dead) return Promise.resolve(failedOutcome(this.dead, started));
    this.out.reset();
    this.err.reset();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        running.timedOut = true;
        this.kill();
      }, timeoutMs);
      const running: Running = {
        timedOut: false,
        overflow: false,
        started,
        finish: (outcome) => {
          clearTimeout(timer);
          clearTimeout(running.killTimer);
          this.running = undefined;
          resolve(outcome);
        },
      };
      this.running = running;
      (this.child.stdin as Writable).write(JSON.stringify({ job: job.name, locale: job.locale, cgroup: job.cgroup ?? null }) + '\n');
    });
  }

  /** Stops the worker and everything in its sandbox. */
  stop(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  /** Asks the zygote to kill the running job; replaces the whole worker if it does not answer. */
  private kill(): void {
    const running = this.running;
    if (!running || running.killTimer) return;
    (this.child.stdin as Writable).write('{"kill": true}\n');
    running.killTimer = setTimeout(() => this.stop(), KILL_GRACE_MS);
  }

  private onOutput(channel: JobChannel, chunk: Buffer): void {
    const running = this.running;
    if (!channel.push(chunk) && running && !running.overflow) {
      running.overflow = true;
      this.kill();
    }
    this.tryFinish();
  }

  private onStatus(line: string): void {
    const running = this.running;
    if (!running) return;
    try {
      const s = JSON.parse(line) as { status: number; marker: string };
      running.status = { code: s.status, marker: Buffer.from(`\0${s.marker}`) };
    } catch {
      this.die(`the grading sandbox said something unexpected: ${line.slice(0, 200)}`);
      this.stop();
      return;
    }
    this.tryFinish();
  }

  /** Done when the status came and both channels carry its marker (all the job's bytes are in). */
  private tryFinish(): void {
    const r = this.running;
    if (!r?.status || !this.out.endsWith(r.status.marker) || !this.err.endsWith(r.status.marker)) return;
    if (r.status.code === SETUP_FAILED) this.dead ??= 'a job could not be set up in this sandbox';
    r.finish({
      exitCode: r.status.code,
      signal: null,
      timedOut: r.timedOut,
      stdout: r.overflow ? '' : this.out.text(r.status.marker),
      stderrTail: this.err.text(r.status.marker).slice(-STDERR_TAIL_BYTES),
      outputOverflow: r.overflow,
      durationMs: Date.now() - r.started,
    });
  }

  private die(reason: string): void {
    this.dead ??= reason;
    const r = this.running;
    if (!r) return;
    const stderrTail = this.err.text(Buffer.alloc(0)).slice(-STDERR_TAIL_BYTES);
    // A job killed for its timeout or its output whose zygote had to go with it: still that job's outcome.
    if (r.timedOut || r.overflow) r.finish({ ...endedOutcome(r.started, stderrTail), signal: 'SIGKILL', timedOut: r.timedOut, outputOverflow: r.overflow });
    else r.finish({ ...failedOutcome(reason, r.started), stderrTail });
  }
}

/** A job that ended without a status from its zygote: no exit code, no output. */
function endedOutcome(started: number, stderrTail = ''): RunOutcome {
  return { exitCode: null, signal: null, timedOut: false, stdout: '', stderrTail, outputOverflow: false, durationMs: Date.now() - started };
}

function failedOutcome(reason: string, started: number): RunOutcome {
  return { ...endedOutcome(started), spawnError: reason };
}

/**
 * Workers up to `size` (the grader's concurrency), started on demand after the first `warm`;
 * a dead worker is replaced at the next acquire.
 */
export class ZygotePool {
  private readonly workers: ZygoteWorker[] = [];
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly deps: ZygotePoolDeps,
  ) {}

  /** Starts `count` workers ahead of the first jobs. */
  warm(count: number): void {
    while (!this.closed && this.workers.length < Math.min(count, this.size)) this.start();
  }

  /** An idle live worker, started if needed (the caller's concurrency is at most `size`). */
  async acquire(): Promise<ZygoteWorker> {
    for (const dead of this.workers.filter((w) => !w.alive && !w.busy)) await this.retire(dead);
    let worker = this.workers.find((w) => w.alive && !w.busy);
    if (!worker) {
      if (this.workers.length >= this.size) throw new Error(`all ${this.size} zygote workers are busy`);
      worker = this.start();
    }
    worker.claimed = true; // before any await: a concurrent acquire must not find it idle
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.splice(0).map((w) => this.retire(w)));
  }

  /** Synchronous from the count's point of view: concurrent callers never start more than `size`. */
  private start(): ZygoteWorker {
    if (this.closed) throw new Error('the grader is closed');
    const inbox = this.deps.makeInbox();
    const worker = new ZygoteWorker(inbox, this.deps.command(inbox), this.deps.maxOutputBytes);
    this.workers.push(worker);
    return worker;
  }

  private async retire(worker: ZygoteWorker): Promise<void> {
    const i = this.workers.indexOf(worker);
    if (i >= 0) this.workers.splice(i, 1);
    worker.stop();
    await this.deps.removeInbox(worker.inbox);
  }
}

/** A new worker's inbox under `root`, with its job folder (synchronous: the pool counts its workers as it starts them). */
function makeInbox(root: string): string {
  mkdirSync(root, { recursive: true, mode: 0o700 }); // (re)created: survives a tmp cleaner
  const inbox = mkdtempSync(join(root, 'zygote-'));
  mkdirSync(join(inbox, WORKER_JOB_DIR), { mode: 0o700 });
  return inbox;
}

/**
 * Ends a grading in a worker's job folder: its inputs removed (no submission stays on disk; and
 * the next grading's files are new ones — rewriting a file in place makes ext4 flush it to disk
 * at close, a write the next truncation waits for, where an unlinked new file never leaves the
 * page cache). Synchronous: a few unlinks.
 */
function emptyJobDir(dir: string): void {
  try {
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
  } catch (err) {
    reportLeftover(dir, err);
  }
}

/** exec `zygote`: a worker per grading, its job folder the worker's own (in its inbox). */
class ZygoteJobRunner implements JobRunner {
  readonly mode = 'zygote';
  private readonly pool: ZygotePool;

  constructor(private readonly sandbox: JobSandbox) {
    const { opts } = sandbox;
    if (opts.isolation !== 'bwrap' || !sandbox.privileged) {
      throw new Error('grader exec zygote needs isolation bwrap and a service running as root (it forks jobs into namespaces of their own)');
    }
    const zygote = { cgroupParents: sandbox.cgroups?.controllers ?? [] };
    this.pool = new ZygotePool(opts.maxConcurrent, {
      makeInbox: () => makeInbox(sandbox.ownRoot),
      removeInbox: (dir) => sandbox.removeJobDir(dir),
      command: (inbox) => sandbox.command(inbox, 'en', { pythonArgs: ZYGOTE_PYTHON_ARGS, zygote }),
      maxOutputBytes: opts.maxOutputBytes,
    });
    this.pool.warm(opts.poolSize);
  }

  async open(job: { locale: string }): Promise<JobSlot> {
    const worker = await this.pool.acquire();
    const dir = join(worker.inbox, WORKER_JOB_DIR); // made with the inbox
    let cgroup: string | undefined;
    try {
      cgroup = (await this.sandbox.attachCgroup(dir))?.name;
    } catch (err) {
      worker.release();
      throw err;
    }
    return {
      dir,
      run: (timeoutMs) => worker.run({ name: WORKER_JOB_DIR, locale: safeLocale(job.locale), cgroup }, timeoutMs),
      release: async () => {
        // Emptied before the worker can take another grading into the folder; the folder goes with the inbox.
        emptyJobDir(dir);
        await this.sandbox.releaseCgroup(dir);
        worker.release();
      },
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export const zygoteJobRunner: JobRunnerFactory = (sandbox) => new ZygoteJobRunner(sandbox);
