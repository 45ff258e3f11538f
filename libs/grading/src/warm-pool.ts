/**
 * `pool` execution mode: warm one-shot sandboxes. Each slot is a fresh job directory with a
 * sandboxed interpreter already started (bwrap set up, stdlib and helper library imported),
 * waiting on stdin. A job takes a ready slot, writes its files, and releases it; a replacement
 * is started in the background. Interpreter start-up leaves the job's critical path while
 * every job still gets its own process and directory.
 */
import type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
import { safeLocale, type JobSandbox } from './job-sandbox';
import { WARM_PYTHON_ARGS, type CommandSpec } from './sandbox-command';
import { SandboxProcess } from './sandbox-process';

export interface WarmSlot {
  dir: string;
  process: SandboxProcess;
}

export interface WarmPoolDeps {
  /** Creates a job directory ready for the sandbox uid. */
  makeDir(): Promise<string>;
  command(dir: string): CommandSpec;
  removeDir(dir: string): Promise<void>;
  maxOutputBytes: number;
}

export class WarmPool {
  private readonly ready: WarmSlot[] = [];
  private readonly starting = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly deps: WarmPoolDeps,
  ) {}

  /** A warm slot (or a cold one when all are taken); the caller owns and must dispose it. */
  async acquire(): Promise<WarmSlot> {
    let slot = this.ready.shift();
    while (slot && slot.process.exited) {
      void this.dispose(slot); // died while idle (killed, OOM): never hand it out
      slot = this.ready.shift();
    }
    const taken = slot ?? (await this.spawn());
    this.refill();
    return taken;
  }

  async dispose(slot: WarmSlot): Promise<void> {
    slot.process.kill();
    await this.deps.removeDir(slot.dir);
  }

  /** Starts warm slots up to the pool size (also called once at construction by the grader). */
  refill(): void {
    while (!this.closed && this.ready.length + this.starting.size < this.size) {
      const pending: Promise<void> = this.spawn().then(
        async (slot) => {
          if (this.closed) await this.dispose(slot);
          else this.ready.push(slot);
        },
        () => undefined, // the next acquire() spawns cold and reports the error
      );
      this.starting.add(pending);
      void pending.finally(() => this.starting.delete(pending));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.starting]); // slots still starting dispose themselves
    await Promise.all(this.ready.splice(0).map((s) => this.dispose(s)));
  }

  private async spawn(): Promise<WarmSlot> {
    const dir = await this.deps.makeDir();
    return { dir, process: new SandboxProcess(this.deps.command(dir), this.deps.maxOutputBytes, true) };
  }
}

/** exec `pool`: a warm slot per grading, released by the job's locale on its stdin. */
class WarmPoolJobRunner implements JobRunner {
  readonly mode = 'pool';
  private readonly pool: WarmPool;

  constructor(private readonly sandbox: JobSandbox) {
    this.pool = new WarmPool(sandbox.opts.poolSize, {
      makeDir: () => sandbox.makeJobDir('warm'),
      command: (dir) => sandbox.command(dir, 'en', { pythonArgs: WARM_PYTHON_ARGS }),
      removeDir: (dir) => sandbox.removeJobDir(dir),
      maxOutputBytes: sandbox.opts.maxOutputBytes,
    });
    this.pool.refill();
  }

  async open(job: { locale: string }): Promise<JobSlot> {
    const slot = await this.pool.acquire();
    return {
      dir: slot.dir,
      run: (timeoutMs) => slot.process.start(timeoutMs, `${safeLocale(job.locale)}\n`),
      release: () => this.sandbox.removeJobDir(slot.dir),
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export const warmPoolJobRunner: JobRunnerFactory = (sandbox) => new WarmPoolJobRunner(sandbox);
