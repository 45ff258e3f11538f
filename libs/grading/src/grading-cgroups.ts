/**
 * One control group per grading (docs/design.md, Untrusted input): a process count, a memory
 * ceiling (tmpfs pages of the job count too) and a CPU share for the whole grading — supervisor,
 * grader and student sandboxes together — so a fork bomb or a memory hog starves its own grading
 * only. RLIMIT_NPROC cannot do that: it counts every process of a uid, shared by all gradings.
 *
 * Detected, not assumed: cgroup v2 where a delegated unified hierarchy has the controllers,
 * else the v1 pids/memory/cpu hierarchies. Groups nest under the service's own group
 * (<own>/shellgrade-p<pid>/<job>) and groups of dead services are swept at start-up. In v1's cpu
 * hierarchy SG_CPU_CGROUP may name another parent: the group a benchmark's scale model gives the
 * service a CPU quota in, so that its gradings spend that quota rather than escape it.
 * Without either, gradings keep their per-process rlimits only (`detect` returns undefined).
 *
 * A group is recycled: handed back empty (no process, no pid left), it serves the next grading
 * with the same limits, since making and removing three groups per grading cost ~0.7 ms of the
 * service's CPU here. A group that is not empty when handed back is removed instead.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { alive } from './job-dirs';

export interface CgroupLimits {
  /** Processes (and threads) of the whole grading. */
  pids: number;
  /** Memory of the whole grading, page cache and tmpfs included. */
  memoryBytes: number;
}

/** A leaf group per controller hierarchy, each with the files to write a pid into to join it. */
export interface JobCgroup {
  /** The group's folder name in every hierarchy (a zygote job joins it by name). */
  name: string;
  procsFiles: string[];
  /** Ends this grading's use: kept for the next grading when empty, removed otherwise. */
  release(): Promise<void>;
}

interface Hierarchy {
  /** <mount>/<service's own group>/shellgrade-p<pid> */
  parent: string;
  /** Limit files written in each job group. */
  limits: (l: CgroupLimits) => [file: string, value: string][];
  /** Files that read '' or '0' once no process of the last grading is left (pids.current also counts unreaped ones). */
  emptyWhen: string[];
}

const OWN_PREFIX = 'shellgrade-p';
const REMOVE_ATTEMPTS = 20;

export class GradingCgroups {
  /** Empty groups waiting for a grading, by the limits they were written with. */
  private readonly idle = new Map<string, string[]>();
  private made = 0;

  private constructor(
    readonly version: 1 | 2,
    private readonly hierarchies: Hierarchy[],
  ) {}

  /** The groups this machine lets the service create, or undefined (no writable hierarchy). */
  static detect(mountRoot = '/sys/fs/cgroup', ownCgroups = readFileSync('/proc/self/cgroup', 'utf8'), cpuParent = process.env.SG_CPU_CGROUP): GradingCgroups | undefined {
    const own = parseOwnGroups(ownCgroups);
    if (cpuParent) own.set('cpu', cpuParent);
    const v2 = detectV2(mountRoot, own.get(''));
    const v1 = v2 ? undefined : detectV1(mountRoot, own);
    const found = v2 ? new GradingCgroups(2, [v2]) : v1 && new GradingCgroups(1, v1);
    return found && found.prepare() ? found : undefined;
  }

  get controllers(): string[] {
    return this.hierarchies.map((h) => h.parent);
  }

  /** A group for one grading: an idle one with these limits, else a new one. */
  async acquire(limits: CgroupLimits): Promise<JobCgroup> {
    const key = `${limits.pids}:${limits.memoryBytes}`;
    const name = this.idle.get(key)?.pop() ?? (await this.make(`job-${++this.made}`, limits));
    const dirs = this.hierarchies.map((h) => join(h.parent, name));
    return {
      name,
      procsFiles: dirs.map((d) => join(d, 'cgroup.procs')),
      release: async () => {
        if (!this.isEmpty(name)) return removeAll(dirs);
        if (!this.idle.has(key)) this.idle.set(key, []);
        this.idle.get(key)!.push(name);
      },
    };
  }

  /** Removes the idle groups, then this service's parent groups (best effort: start-up sweeps too). */
  async dispose(): Promise<void> {
    const idle = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(idle.map((name) => removeAll(this.hierarchies.map((h) => join(h.parent, name)))));
    await Promise.all(this.hierarchies.map((h) => rmdir(h.parent).catch(() => undefined)));
  }

  private async make(name: string, limits: CgroupLimits): Promise<string> {
    await Promise.all(
      this.hierarchies.map(async (h) => {
        const dir = join(h.parent, name);
        await mkdir(dir, { recursive: true }); // (re)creates the parent another grader's close() removed
        for (const [file, value] of h.limits(limits)) await writeFile(join(dir, file), value);
      }),
    );
    return name;
  }

  /** No process of the last grading left in any hierarchy (an unreadable file counts as not empty). */
  private isEmpty(name: string): boolean {
    return this.hierarchies.every((h) => h.emptyWhen.every((file) => ['', '0'].includes(readOr(join(h.parent, name, file), 'unreadable'))));
  }

  /** Creates this service's parent groups and removes those of services that are gone. */
  private prepare(): boolean {
    try {
      for (const h of this.hierarchies) {
        sweepDead(join(h.parent, '..'));
        if (!existsSync(h.parent)) mkdirSync(h.parent, { recursive: true }); // SG_CPU_CGROUP's group may not be made yet
      }
      return true;
    } catch {
      return false; // read-only or not delegated to us: rlimits only
    }
  }
}

/** Map of controller (or '' for v2) to the service's own group path. */
function parseOwnGroups(text: string): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (m) for (const c of m[1].split(',')) own.set(c.replace(/^name=/, ''), m[2]);
  }
  return own;
}

function detectV2(mountRoot: string, ownPath: string | undefined): Hierarchy | undefined {
  if (ownPath === undefined) return undefined;
  for (const mount of [mountRoot, join(mountRoot, 'unified')]) {
    const base = join(mount, ownPath);
    const controllers = readOr(join(mount, 'cgroup.controllers')).split(/\s+/);
    const delegated = readOr(join(base, 'cgroup.subtree_control')).split(/\s+/);
    // The service's own group may hold processes, so it can only hand out controllers it
    // already delegates (the root group, or a systemd Delegate= unit).
    if (['pids', 'memory'].every((c) => controllers.includes(c) && (ownPath === '/' || delegated.includes(c)))) {
      return {
        parent: join(base, `${OWN_PREFIX}${process.pid}`),
        limits: (l) => [['pids.max', String(l.pids)], ['memory.max', String(l.memoryBytes)], ['memory.swap.max', '0']],
        emptyWhen: ['cgroup.procs', 'pids.current'],
      };
    }
  }
  return undefined;
}

function detectV1(mountRoot: string, own: Map<string, string>): Hierarchy[] | undefined {
  const v1: [string, (l: CgroupLimits) => [string, string][], string[]][] = [
    ['pids', (l) => [['pids.max', String(l.pids)]], ['cgroup.procs', 'pids.current']],
    ['memory', (l) => [['memory.limit_in_bytes', String(l.memoryBytes)]], ['cgroup.procs']],
    ['cpu', () => [], ['cgroup.procs']], // a group of its own is the point: the whole grading weighs one share
  ];
  const hierarchies: Hierarchy[] = [];
  for (const [controller, limits, emptyWhen] of v1) {
    const mount = join(mountRoot, controller);
    const ownPath = own.get(controller);
    if (ownPath === undefined || !existsSync(join(mount, 'cgroup.procs'))) continue;
    hierarchies.push({ parent: join(mount, ownPath, `${OWN_PREFIX}${process.pid}`), limits, emptyWhen });
  }
  // Without the pids controller a fork bomb is not contained: not worth the overhead.
  return hierarchies.some((h) => h.parent.includes('/pids/')) ? hierarchies : undefined;
}

function readOr(path: string, fallback = ''): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** An emptied group can be removed once its last process is reaped: retry briefly. */
async function removeAll(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
      try {
        await rmdir(dir);
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') break;
        if (code !== 'EBUSY' || attempt === REMOVE_ATTEMPTS - 1) {
          process.emitWarning(`could not remove grading cgroup ${dir}: ${code}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

function sweepDead(dir: string): void {
  for (const name of safeReaddir(dir)) {
    const m = new RegExp(`^${OWN_PREFIX}(\\d+)$`).exec(name);
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    const parent = join(dir, name);
    try {
      for (const job of safeReaddir(parent)) if (existsSync(join(parent, job, 'cgroup.procs'))) rmdirSync(join(parent, job));
      rmdirSync(parent);
    } catch {
      /* still busy (a process survived): the next start-up tries again */
    }
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
