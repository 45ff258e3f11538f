/**
 * With inline dispatch the grading runs inside the request: when its process dies (kill -9,
 * out of memory) the production stays received or grading for ever, and the client, whose
 * connection was cut, may never have learnt its id. Every inline-grading process therefore
 * sweeps now and then for productions older than any grading can last and grades them once
 * (GradingWorker stores an outcome exactly once, so a race with a slow owner is harmless).
 * Broker dispatches do not need it: the broker redelivers what a dead consumer held.
 */
import type { GradingWorker, ProductionRepository } from '@shellgrade/domain';

export interface SweeperOptions {
  /** A production this old and not final has lost its grading process. */
  staleAfterMs: number;
  /** Pause between sweeps (spec: interruptedGradings.sweepEveryMs). */
  everyMs: number;
  /** Productions regraded per sweep (spec: interruptedGradings.sweepBatch). */
  batch: number;
  log?: (line: string) => void;
}

/** Longer than any inline grading: the grader's hard timeout three times, plus the request around it. */
export const staleAfterMs = (graderTimeoutMs: number) => 3 * graderTimeoutMs + 30_000;

export class InterruptedGradingSweeper {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    private readonly productions: ProductionRepository,
    private readonly worker: GradingWorker,
    private readonly options: SweeperOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.options.everyMs);
    this.timer.unref();
    void this.sweep();
  }

  /** One pass; returns how many productions it regraded. Never rejects. */
  sweep(): Promise<number> {
    this.sweeping ??= this.pass().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  private async pass(): Promise<number> {
    const log = this.options.log ?? ((line: string) => console.warn(line));
    try {
      const ids = await this.productions.reclaimInterrupted(this.options.staleAfterMs, this.options.batch);
      for (const id of ids) {
        const graded = await this.worker.grade(id).catch((error: unknown) => log(`interrupted production ${id} not regraded yet: ${String(error)}`));
        if (graded) log(`interrupted production ${id} graded again after its process stopped (${graded.status})`);
      }
      return ids.length;
    } catch (error) {
      log(`sweep for interrupted gradings failed: ${String(error)}`);
      return 0;
    }
  }
}
