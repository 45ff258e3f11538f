// Crashes are data (issue 13 item 4): while k6 runs, a process of the variant that exits is
// recorded on the run — which one, when — and the run counts, with the KOs it caused.
import { existsSync } from 'node:fs';
import type { VariantStatus } from './stack';

export interface CrashEvent {
  process: string;
  pid: number;
  /** When the watcher saw the pid gone (epoch ms; within one poll of the exit). */
  atMs: number;
  at: string;
}

/** The sampler reads /proc too: a pid without its /proc entry has exited (and been reaped). */
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

/** Polls the variant's process pids once a second; `onCrash` lets the caller follow the restarted process. */
export class CrashWatch {
  readonly events: CrashEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private watched = new Map<string, number>();

  constructor(private readonly onCrash: (e: CrashEvent) => void = () => undefined) {}

  start(status: VariantStatus, intervalMs = 1000): void {
    this.follow(status);
    this.timer = setInterval(() => this.poll(), intervalMs);
  }

  /** Watches the pids of `status` from now on (after a restart: the new pid). */
  follow(status: VariantStatus): void {
    this.watched = new Map(status.processes.filter((p) => p.pid).map((p) => [p.name, p.pid!]));
  }

  stop(): CrashEvent[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.poll();
    return this.events;
  }

  private poll(): void {
    for (const [name, pid] of this.watched) {
      if (alive(pid)) continue;
      const atMs = Date.now();
      const e = { process: name, pid, atMs, at: new Date(atMs).toISOString() };
      this.events.push(e);
      this.watched.delete(name);
      this.onCrash(e);
    }
  }
}
