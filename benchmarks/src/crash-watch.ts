// Crashes are data: while k6 runs, a process of the variant that exits is
// recorded on the run — which one, when — and the run counts, with the KOs it caused. The native
// servers the variant uses (PostgreSQL, Redis, RabbitMQ, MinIO, Jaeger under pm2) are watched
// alike and named as such: a dead database is not only a column of KOs.
import { existsSync } from 'node:fs';
import type { VariantStatus } from './stack';

export interface CrashEvent {
  /** The pm2 app of a variant process (sg-exercise-1), or "native server <name>". */
  process: string;
  kind: 'process' | 'native-server';
  pid: number;
  /** When the watcher saw the pid gone (epoch ms; within one poll of the exit). */
  atMs: number;
  at: string;
}

/** The sampler reads /proc too: a pid without its /proc entry has exited (and been reaped). */
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

interface Watched {
  pid: number;
  kind: CrashEvent['kind'];
}

/** Polls the variant's process pids once a second; `onCrash` lets the caller follow the restarted process. */
export class CrashWatch {
  readonly events: CrashEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private watched = new Map<string, Watched>();

  constructor(private readonly onCrash: (e: CrashEvent) => void = () => undefined) {}

  start(status: VariantStatus, intervalMs = 1000): void {
    this.follow(status);
    this.timer = setInterval(() => this.poll(), intervalMs);
  }

  /** Watches the pids of `status` (its processes and native servers) from now on (after a restart: the new pid). */
  follow(status: VariantStatus): void {
    this.watched = new Map([
      ...status.processes.filter((p) => p.pid).map((p): [string, Watched] => [p.name, { pid: p.pid!, kind: 'process' }]),
      ...status.servers.filter((s) => s.pid).map((s): [string, Watched] => [`native server ${s.name}`, { pid: s.pid!, kind: 'native-server' }]),
    ]);
  }

  stop(): CrashEvent[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.poll();
    return this.events;
  }

  private poll(): void {
    for (const [name, { pid, kind }] of this.watched) {
      if (alive(pid)) continue;
      const atMs = Date.now();
      const e = { process: name, kind, pid, atMs, at: new Date(atMs).toISOString() };
      this.events.push(e);
      this.watched.delete(name);
      this.onCrash(e);
    }
  }
}
