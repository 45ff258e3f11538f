// Which processes are the system under test: every process of the variant and every native
// server it uses, each with all its descendants as they are now (a cgroup takes children born
// later by itself, not those born before), plus the process supervisor that started them (pm2's
// daemon): a process it restarts during the run is then born inside the group too.
import { readFileSync } from 'node:fs';
import { descendantsOf } from '../resource-sampler';

/** A supervisor's command line: pm2's daemon calls itself "PM2 v5.x: God Daemon (…)". */
const SUPERVISOR = /\bPM2\b.*God Daemon|\bpm2\b/i;

export function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/**
 * Roots, their descendants and the supervisors among their parents; never pid 1, never the
 * harness (`exclude`) nor any of its ancestors.
 */
export function sutPids(
  roots: number[],
  table: { pid: number; ppid: number }[],
  cmdline: (pid: number) => string = cmdlineOf,
  exclude: number[] = [process.pid],
): number[] {
  const parent = new Map(table.map((p) => [p.pid, p.ppid]));
  const banned = new Set<number>([0, 1]);
  for (const e of exclude) for (let p: number | undefined = e; p !== undefined && !banned.has(p); p = parent.get(p)) banned.add(p);
  const out = new Set<number>();
  for (const root of roots) {
    if (!parent.has(root) || banned.has(root)) continue;
    for (const pid of descendantsOf(root, table)) if (!banned.has(pid)) out.add(pid);
    const sup = parent.get(root);
    if (sup !== undefined && !banned.has(sup) && SUPERVISOR.test(cmdline(sup))) out.add(sup);
  }
  return [...out];
}
