// CPU accounting per process group through a cgroup: every process forked later by a member
// (grader children in their bwrap pid namespace, postgres backends) lands in the same cgroup
// and its CPU time is counted there, alive or reaped — which per-pid /proc sampling cannot do.
// cgroup v1 (cpuacct controller, as here) or v2 (cpu controller in the unified hierarchy),
// detected, never assumed; without either the sampler falls back to /proc (resource-sampler.ts).
// Only the CPU controller is used: memory is PSS from /proc/<pid>/smaps_rollup (memory cgroups
// also charge page cache, and this machine's memory hierarchy belongs to its supervisor).
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type CgroupFlavour = { version: 1; root: string } | { version: 2; root: string };

const ROOT = '/sys/fs/cgroup';
const PARENT = 'sg-bench';

/** Which cgroup CPU accounting this machine offers (`root` = a writable controller mount). */
export function detectCgroup(root = ROOT): CgroupFlavour | null {
  const v1 = join(root, 'cpuacct');
  if (existsSync(join(v1, 'cpuacct.usage'))) return { version: 1, root: v1 };
  const controllers = join(root, 'cgroup.controllers');
  if (existsSync(controllers) && readFileSync(controllers, 'utf8').split(/\s+/).includes('cpu')) return { version: 2, root };
  return null;
}

/** CPU seconds of a cgroup: v1 cpuacct.usage (ns), v2 cpu.stat usage_usec. */
export function parseCpuUsage(version: 1 | 2, text: string): number {
  if (version === 1) return Number(text.trim()) / 1e9;
  const m = /^usage_usec (\d+)$/m.exec(text);
  return m ? Number(m[1]) / 1e6 : 0;
}

/**
 * The whole machine's CPU seconds from the root cgroup: the counter the groups are read from
 * (v1 cpuacct.usage, ns: every task's run time, kernel threads included), so the groups are a part
 * of it by construction; v2's root cpu.stat where the kernel offers one. Null where the root has none.
 */
export function rootCpuS(flavour: CgroupFlavour): number | null {
  const file = join(flavour.root, flavour.version === 1 ? 'cpuacct.usage' : 'cpu.stat');
  try {
    const text = readFileSync(file, 'utf8');
    if (flavour.version === 2 && !/^usage_usec \d+$/m.test(text)) return null;
    return parseCpuUsage(flavour.version, text);
  } catch {
    return null;
  }
}

/** One cgroup per process group, created at run start and removed at the end. */
export class CpuCgroups {
  private readonly dirs = new Map<string, string>();

  constructor(readonly flavour: CgroupFlavour, private readonly runTag = String(process.pid)) {}

  private dirOf(group: string): string {
    let dir = this.dirs.get(group);
    if (!dir) {
      const parent = join(this.flavour.root, `${PARENT}-${this.runTag}`);
      if (!existsSync(parent)) {
        mkdirSync(parent);
        if (this.flavour.version === 2) writeFileSync(join(parent, 'cgroup.subtree_control'), '+cpu');
      }
      dir = join(parent, group.replace(/[^A-Za-z0-9_.-]/g, '_'));
      if (!existsSync(dir)) mkdirSync(dir);
      this.dirs.set(group, dir);
    }
    return dir;
  }

  /** Moves pids into the group's cgroup (idempotent; a pid gone meanwhile is skipped). Returns how many moved. */
  attach(group: string, pids: number[]): number {
    const procs = join(this.dirOf(group), 'cgroup.procs');
    let moved = 0;
    for (const pid of pids) {
      try {
        writeFileSync(procs, String(pid));
        moved++;
      } catch {
        /* exited, or a kernel thread */
      }
    }
    return moved;
  }

  cpuS(group: string): number | null {
    const dir = this.dirs.get(group);
    if (!dir) return null;
    try {
      const file = this.flavour.version === 1 ? 'cpuacct.usage' : 'cpu.stat';
      return parseCpuUsage(this.flavour.version, readFileSync(join(dir, file), 'utf8'));
    } catch {
      return null;
    }
  }

  /** Moves every member back to the root cgroup and removes ours. */
  release(): void {
    const rootProcs = join(this.flavour.root, 'cgroup.procs');
    for (const dir of this.dirs.values()) {
      try {
        for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
          try {
            writeFileSync(rootProcs, pid);
          } catch {
            /* exited */
          }
        }
        rmdirSync(dir);
      } catch {
        /* already gone */
      }
    }
    try {
      rmdirSync(join(this.flavour.root, `${PARENT}-${this.runTag}`));
    } catch {
      /* not empty or absent */
    }
    this.dirs.clear();
  }
}

/** Proportional set size of one process (shared pages split among their users), bytes; null when unreadable. */
export function parsePss(smapsRollup: string): number | null {
  const m = /^Pss:\s+(\d+) kB$/m.exec(smapsRollup);
  return m ? Number(m[1]) * 1024 : null;
}

/**
 * A thread's time on a CPU, time runnable but waiting for one (ns), and how many times it was
 * scheduled: /proc/<pid>/task/<tid>/schedstat.
 */
export function parseSchedstat(text: string): { runS: number; waitS: number; slices: number } {
  const [run, wait, slices] = text.trim().split(/\s+/).map(Number);
  return { runS: (run || 0) / 1e9, waitS: (wait || 0) / 1e9, slices: slices || 0 };
}
