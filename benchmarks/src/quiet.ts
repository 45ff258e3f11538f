// Before a measured run the system under test must be idle. An overload can leave work behind
// that no database state shows — requests still queued in the gateway's upstream socket pool or
// a server's accept queue, a blocking grader working through them after their clients left —
// and that work would be measured as the next run's (seen: msa-1-1 at 0.5× right after its
// paper-equivalent run, p95 11.9 s instead of 0.1 s, 0.36 s of CPU per iteration instead of
// 0.14). So the runner waits, bounded, until the system's CPUs stay quiet for a few seconds; a
// run whose system never went quiet is INVALID (validity.ts), with the figures.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Busy and total jiffies of one CPU line of /proc/stat. */
export interface CpuJiffies {
  cpu: number;
  busy: number;
  total: number;
}

export interface QuietRule {
  /** Cores in use below which the system counts as idle (the foreign-load limit of validity.ts). */
  thresholdCores: number;
  /** Consecutive quiet seconds needed. */
  quietS: number;
  /** The longest wait. */
  timeoutS: number;
}

export const DEFAULT_QUIET: QuietRule = { thresholdCores: 0.15, quietS: 3, timeoutS: 300 };

export interface QuietWait {
  quiet: boolean;
  /** Seconds waited before the load (readings, one a second). */
  waitedS: number;
  /** Cores in use over the last second measured. */
  lastCores: number;
  /** The CPUs watched ("all": no placement, the whole machine). */
  cpus: number[] | 'all';
}

/** Per-CPU lines of /proc/stat ("cpuN user nice system idle iowait irq softirq steal ..."): idle and iowait are not busy. */
export function parseCpuStat(text: string): CpuJiffies[] {
  const out: CpuJiffies[] = [];
  for (const line of text.split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const f = m[2].trim().split(/\s+/).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    out.push({ cpu: Number(m[1]), busy: total - f[3] - (f[4] ?? 0), total });
  }
  return out;
}

/** Cores in use between two readings, over the CPUs watched (null: all of them). */
export function busyCores(before: CpuJiffies[], after: CpuJiffies[], cpus: number[] | null): number {
  let cores = 0;
  for (const a of after) {
    if (cpus && !cpus.includes(a.cpu)) continue;
    const b = before.find((x) => x.cpu === a.cpu);
    const dt = b ? a.total - b.total : 0;
    if (b && dt > 0) cores += (a.busy - b.busy) / dt;
  }
  return cores;
}

/** Waits until the CPUs stay below the threshold for `quietS` consecutive readings a second apart (`tickMs`), or the timeout. */
export async function waitForQuiet(cpus: number[] | null, rule: QuietRule = DEFAULT_QUIET, read: () => CpuJiffies[] = () => parseCpuStat(readFileSync('/proc/stat', 'utf8')), tickMs = 1000): Promise<QuietWait> {
  let last = read();
  let quietFor = 0;
  let lastCores = 0;
  for (let s = 1; s <= rule.timeoutS; s++) {
    await sleep(tickMs);
    const now = read();
    lastCores = busyCores(last, now, cpus);
    last = now;
    quietFor = lastCores < rule.thresholdCores ? quietFor + 1 : 0;
    if (quietFor >= rule.quietS) return { quiet: true, waitedS: s, lastCores, cpus: cpus ?? 'all' };
  }
  return { quiet: false, waitedS: rule.timeoutS, lastCores, cpus: cpus ?? 'all' };
}

/** The validity reason of a run whose system never went quiet; null when it did (or was not watched). */
export function busyReason(q: QuietWait | null | undefined, rule: QuietRule = DEFAULT_QUIET): string | null {
  if (!q || q.quiet) return null;
  return `the system under test was still busy before the load (${q.lastCores.toFixed(2)} cores on CPU ${q.cpus === 'all' ? 'all' : q.cpus.join(',')} after ${q.waitedS.toFixed(0)} s; idle means below ${rule.thresholdCores} for ${rule.quietS} s): work left by an earlier run would be measured as this one's`;
}
