// CPU quotas per container of the scale model (scale-model.ts): one group per process of the
// system under test under a root group, `sg-scale`, whose own quota is the whole system's. A
// group's quota caps its members and every child group below it, so the per-grading groups a
// replica makes under its own (libs/grading, told by SG_CPU_CGROUP) are charged to the replica.
// cgroup v1's cpu controller (cpu.cfs_quota_us / cpu.cfs_period_us, mounted alone or as
// cpu,cpuacct) or v2's cpu.max where the unified hierarchy is ours to write: detected, never
// assumed, in the style of detect.ts. Throttling is read back from cpu.stat.
import { existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ownUnifiedPath } from './detect';
import { readControl, writable } from './cgroup-files';

/** The root group's name; a variant's processes are told `<root path>/<process name>` (SG_CPU_CGROUP). */
export const SCALE_ROOT = 'sg-scale';

export interface CpuQuotaFlavour {
  version: 1 | 2;
  /** The hierarchy's mount: SG_CPU_CGROUP paths are relative to it. */
  mount: string;
  /** Where the root group is made (v1: the mount; v2: the mount or the parent of our own delegated cgroup). */
  parent: string;
  /** Where members go back to. */
  home: string;
}

export type CpuQuotaDetection = { available: true; flavour: CpuQuotaFlavour } | { available: false; reason: string };


/**
 * v1's cpu controller (alone or co-mounted with cpuacct), then v2's cpu controller where it is
 * delegated to us: the folder our groups go under must list `cpu` in its own cgroup.controllers
 * (a delegated subtree offers only what its parent enabled; systemd's user slices often give
 * memory and pids alone) and be writable. `canWrite` is the permission probe (tests fake a user).
 */
export function detectCpuQuota(base = '/sys/fs/cgroup', procSelfCgroup = readControl('/proc/self/cgroup') ?? '', canWrite: (path: string) => boolean = writable): CpuQuotaDetection {
  const reasons: string[] = [];
  for (const name of ['cpu', 'cpu,cpuacct']) {
    const dir = join(base, name);
    if (!existsSync(join(dir, 'cpu.cfs_quota_us'))) continue;
    if (canWrite(dir) && canWrite(join(dir, 'cgroup.procs'))) return { available: true, flavour: { version: 1, mount: dir, parent: dir, home: dir } };
    reasons.push(`cgroup v1 cpu controller at ${dir} is not writable by this user`);
  }
  if (reasons.length === 0) reasons.push(`no cgroup v1 cpu controller under ${base}`);
  const own = ownUnifiedPath(procSelfCgroup);
  const offersCpu = (dir: string): string | null => {
    const controllers = readControl(join(dir, 'cgroup.controllers'));
    if (controllers === null) return 'no cgroup.controllers';
    return controllers.split(/\s+/).includes('cpu') ? null : `offers [${controllers}] without cpu`;
  };
  for (const mount of [base, join(base, 'unified')]) {
    if (readControl(join(mount, 'cgroup.controllers')) === null) continue;
    const atMount = offersCpu(mount);
    if (atMount) {
      reasons.push(`cgroup v2 at ${mount} ${atMount}`);
      continue;
    }
    const candidates: [string, string][] = [[mount, mount], ...(own && own !== '/' ? [[join(mount, dirname(own)), join(mount, own)] as [string, string]] : [])];
    for (const [dir, home] of candidates) {
      const lacks = dir === mount ? null : offersCpu(dir);
      if (lacks) reasons.push(`cgroup v2 at ${dir} ${lacks}: the cpu controller is not delegated there`);
      else if (canWrite(dir) && canWrite(join(dir, 'cgroup.subtree_control'))) return { available: true, flavour: { version: 2, mount, parent: dir, home } };
      else reasons.push(`cgroup v2 at ${dir} is not writable (not delegated to this user)`);
    }
  }
  return { available: false, reason: reasons.join('; ') };
}

/** A group's throttling as cpu.stat says it: periods with runnable members, periods throttled, time throttled. */
export interface Throttling {
  nrPeriods: number;
  nrThrottled: number;
  throttledS: number;
}

/** cpu.stat of either version: v1 throttled_time (ns), v2 throttled_usec. */
export function parseThrottling(text: string): Throttling {
  const field = (name: string): number | null => {
    const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const ns = field('throttled_time');
  const us = field('throttled_usec');
  return { nrPeriods: field('nr_periods') ?? 0, nrThrottled: field('nr_throttled') ?? 0, throttledS: ns !== null ? ns / 1e9 : (us ?? 0) / 1e6 };
}

/** b − a, group by group (a group absent from `a` counts from 0). */
export function throttlingDelta(a: Record<string, Throttling>, b: Record<string, Throttling>): Record<string, Throttling> {
  const zero: Throttling = { nrPeriods: 0, nrThrottled: 0, throttledS: 0 };
  return Object.fromEntries(
    Object.entries(b).map(([k, v]) => {
      const w = a[k] ?? zero;
      return [k, { nrPeriods: v.nrPeriods - w.nrPeriods, nrThrottled: v.nrThrottled - w.nrThrottled, throttledS: Math.round((v.throttledS - w.throttledS) * 1e6) / 1e6 }];
    }),
  );
}

/** The cgroup a pid is in, in this hierarchy ("/sg-scale/sg-monolith-0"), from /proc/<pid>/cgroup text. */
export function cgroupOf(procPidCgroup: string, version: 1 | 2): string | null {
  for (const line of procPidCgroup.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (version === 2 ? m[1] === '' : m[1].split(',').includes('cpu')) return m[2];
  }
  return null;
}

const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_.-]/g, '_');

export class CpuQuotaGroups {
  readonly root: string;

  constructor(readonly flavour: CpuQuotaFlavour, rootName = SCALE_ROOT) {
    this.root = join(flavour.parent, rootName);
  }

  /** A group's folder. */
  dirOf(group: string): string {
    return join(this.root, safeName(group));
  }

  /** A group's path as /proc/<pid>/cgroup and SG_CPU_CGROUP name it: relative to the hierarchy's mount, with a leading slash. */
  pathOf(group?: string): string {
    return `/${relative(this.flavour.mount, group === undefined ? this.root : this.dirOf(group))}`;
  }

  /** Makes the root with the system's quota and a group per name with each one's (idempotent: an existing group gets the new quota). */
  apply(periodUs: number, rootQuotaUs: number | null, groups: Record<string, number | null>): void {
    const v2 = this.flavour.version === 2;
    if (v2) enableCpu(this.flavour.parent);
    if (!existsSync(this.root)) mkdirSync(this.root);
    // v1 refuses a parent's quota below a child's: every quota lifted before the new ones, root first.
    for (const name of this.groupNames()) this.writeQuota(join(this.root, name), null, null);
    this.writeQuota(this.root, rootQuotaUs, periodUs);
    if (v2) enableCpu(this.root);
    for (const [name, quotaUs] of Object.entries(groups)) {
      const dir = this.dirOf(name);
      if (!existsSync(dir)) mkdirSync(dir);
      this.writeQuota(dir, quotaUs, periodUs);
    }
  }

  /** The quota and period a group has now (null quota: unlimited). */
  quotaOf(group?: string): { quotaUs: number | null; periodUs: number } {
    const dir = group === undefined ? this.root : this.dirOf(group);
    if (this.flavour.version === 1) {
      const q = Number(readControl(join(dir, 'cpu.cfs_quota_us')));
      return { quotaUs: q < 0 ? null : q, periodUs: Number(readControl(join(dir, 'cpu.cfs_period_us'))) };
    }
    const [q, p] = (readControl(join(dir, 'cpu.max')) ?? 'max 100000').split(/\s+/);
    return { quotaUs: q === 'max' ? null : Number(q), periodUs: Number(p) };
  }

  /**
   * Moves pids into a group, except those already in it or below it (a grading's own group under
   * the replica's stays where it is: it is charged to the replica all the same). Returns the pids moved.
   */
  attach(group: string, pids: number[], cgroupText: (pid: number) => string | null = procCgroup): number[] {
    const path = this.pathOf(group);
    const procs = join(this.dirOf(group), 'cgroup.procs');
    const moved: number[] = [];
    for (const pid of pids) {
      const text = cgroupText(pid);
      if (text === null) continue;
      const now = cgroupOf(text, this.flavour.version);
      if (now === path || now?.startsWith(`${path}/`)) continue;
      try {
        writeFileSync(procs, String(pid));
        moved.push(pid);
      } catch {
        /* exited, or a kernel thread */
      }
    }
    return moved;
  }

  members(group: string): number[] {
    return (readControl(join(this.dirOf(group), 'cgroup.procs')) ?? '').split('\n').filter(Boolean).map(Number);
  }

  /** Throttling of every group made (by name) and of the root ('*'). */
  readThrottling(): Record<string, Throttling> {
    const out: Record<string, Throttling> = {};
    const root = readControl(join(this.root, 'cpu.stat'));
    if (root !== null) out['*'] = parseThrottling(root);
    for (const name of this.groupNames()) {
      const text = readControl(join(this.root, name, 'cpu.stat'));
      if (text !== null) out[name] = parseThrottling(text);
    }
    return out;
  }

  /**
   * Undo: every quota lifted, the members of each group moved home, groups without children
   * removed. A group a live service made its gradings' groups in stays (unlimited) until that
   * service ends: removing it would pull the floor from under a grading about to start.
   */
  release(): number {
    if (!existsSync(this.root)) return 0;
    let moved = 0;
    const home = join(this.flavour.home, 'cgroup.procs');
    for (const name of this.groupNames()) {
      const dir = join(this.root, name);
      this.writeQuota(dir, null, null);
      for (let pass = 0; pass < 5; pass++) {
        const pids = (readControl(join(dir, 'cgroup.procs')) ?? '').split('\n').filter(Boolean);
        if (pids.length === 0) break;
        for (const pid of pids) {
          try {
            writeFileSync(home, pid);
            moved++;
          } catch {
            /* exited */
          }
        }
      }
      tryRmdir(dir);
    }
    if (existsSync(this.root)) this.writeQuota(this.root, null, null);
    tryRmdir(this.root);
    return moved;
  }

  private groupNames(): string[] {
    try {
      return readdirSync(this.root, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      return [];
    }
  }

  /** null quota: unlimited. v1 writes the period first when it grows, so quota ≤ the kernel's bound at every step. */
  private writeQuota(dir: string, quotaUs: number | null, periodUs: number | null): void {
    if (this.flavour.version === 2) {
      writeFileSync(join(dir, 'cpu.max'), `${quotaUs === null ? 'max' : quotaUs}${periodUs === null ? '' : ` ${periodUs}`}`);
      return;
    }
    // Lifted first: the new period with the old quota could be refused (below 1 ms, or above the parent's share).
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), '-1');
    if (periodUs !== null) writeFileSync(join(dir, 'cpu.cfs_period_us'), String(periodUs));
    if (quotaUs !== null) writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
  }
}

function enableCpu(dir: string): void {
  const control = join(dir, 'cgroup.subtree_control');
  if (!(readControl(control) ?? '').split(/\s+/).includes('cpu')) writeFileSync(control, '+cpu');
}

function procCgroup(pid: number): string | null {
  return readControl(`/proc/${pid}/cgroup`);
}

function tryRmdir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* children left (a live service's grading groups) or members that could not move */
  }
}
