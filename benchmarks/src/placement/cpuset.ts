// Two cpusets under one parent, `sg-place-<tag>/client` and `…/sut`: made with their CPUs,
// given processes (a whole process, all its threads; every child it forks later is born inside),
// and removed again with every member moved back home. cgroup v1 or v2 (detect.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatCpuList } from './cpu-list';
import type { CpusetFlavour } from './detect';

export type Side = 'client' | 'sut';
export const PLACEMENT_PREFIX = 'sg-place-';

export class CpusetGroups {
  readonly dir: string;

  constructor(
    readonly flavour: CpusetFlavour,
    readonly cpus: Record<Side, number[]>,
    readonly tag = String(process.pid),
  ) {
    this.dir = join(flavour.parent, `${PLACEMENT_PREFIX}${tag}`);
  }

  /** Makes both groups with their CPUs and the parent's memory nodes. */
  create(): void {
    const v1 = this.flavour.version === 1;
    const mems = this.flavour.mems;
    if (!v1) enableCpuset(this.flavour.parent);
    if (!existsSync(this.dir)) mkdirSync(this.dir);
    // v1: a child's CPUs must lie within its parent's, and a cpuset takes no task before it has CPUs and mems.
    writeFileSync(join(this.dir, 'cpuset.cpus'), formatCpuList([...this.cpus.client, ...this.cpus.sut]));
    if (mems) writeFileSync(join(this.dir, 'cpuset.mems'), mems);
    if (!v1) enableCpuset(this.dir);
    for (const side of ['client', 'sut'] as Side[]) {
      const dir = join(this.dir, side);
      if (!existsSync(dir)) mkdirSync(dir);
      writeFileSync(join(dir, 'cpuset.cpus'), formatCpuList(this.cpus[side]));
      if (mems) writeFileSync(join(dir, 'cpuset.mems'), mems);
    }
  }

  /** Moves processes in (a pid gone meanwhile, or a kernel thread, is skipped). Returns the pids moved. */
  attach(side: Side, pids: number[]): number[] {
    const procs = join(this.dir, side, 'cgroup.procs');
    const moved: number[] = [];
    for (const pid of pids) {
      try {
        writeFileSync(procs, String(pid));
        moved.push(pid);
      } catch {
        /* exited, or not movable */
      }
    }
    return moved;
  }

  members(side: Side): number[] {
    try {
      return readFileSync(join(this.dir, side, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  /**
   * Every member back home, then the groups removed. A member may fork while we move it: a few
   * passes until the group is empty. Returns how many processes were moved back.
   */
  release(): number {
    return releaseDir(this.dir, this.flavour.home);
  }
}

function enableCpuset(dir: string): void {
  const control = join(dir, 'cgroup.subtree_control');
  if (!readFileSync(control, 'utf8').split(/\s+/).includes('cpuset')) writeFileSync(control, '+cpuset');
}

function releaseDir(dir: string, home: string): number {
  if (!existsSync(dir)) return 0;
  const homeProcs = join(home, 'cgroup.procs');
  let moved = 0;
  const children = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  for (const child of children) {
    for (let pass = 0; pass < 5; pass++) {
      let pids: string[];
      try {
        pids = readFileSync(join(child, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      } catch {
        break;
      }
      if (pids.length === 0) break;
      for (const pid of pids) {
        try {
          writeFileSync(homeProcs, pid);
          moved++;
        } catch {
          /* exited */
        }
      }
    }
    try {
      rmdirSync(child);
    } catch {
      /* still busy: left for releaseStale */
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    /* a child left */
  }
  return moved;
}

/**
 * Groups left by a harness that died without its undo (SIGKILL): their tag is a pid no longer
 * alive. Members go home, groups are removed. Returns the directories released.
 */
export function releaseStale(flavour: CpusetFlavour, alive: (pid: number) => boolean = pidAlive): string[] {
  if (!existsSync(flavour.parent)) return [];
  const stale = readdirSync(flavour.parent)
    .filter((n) => n.startsWith(PLACEMENT_PREFIX))
    .filter((n) => {
      const pid = Number(n.slice(PLACEMENT_PREFIX.length));
      return Number.isInteger(pid) && !alive(pid);
    });
  for (const n of stale) releaseDir(join(flavour.parent, n), flavour.home);
  return stale;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
