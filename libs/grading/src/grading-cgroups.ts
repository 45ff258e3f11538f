/**
 * One control group per grading (DESIGN §8, issue 22 item 2): a process count, a memory ceiling
 * (tmpfs pages of the job count too) and a CPU share for the whole grading — supervisor, grader
 * and student sandboxes together — so a fork bomb or a memory hog starves its own grading only.
 * RLIMIT_NPROC cannot do that: it counts every process of a uid, shared by all gradings.
 *
 * Detected, not assumed: cgroup v2 where a delegated unified hierarchy has the controllers,
 * else the v1 pids/memory/cpu hierarchies. Groups nest under the service's own group
 * (<own>/shellgrade-p<pid>/<job>) and groups of dead services are swept at start-up.
 * Without either, gradings keep their per-process rlimits only (`detect` returns undefined).
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
  procsFiles: string[];
  remove(): Promise<void>;
}

interface Hierarchy {
  /** <mount>/<service's own group>/shellgrade-p<pid> */
  parent: string;
  /** Limit files written in each job group. */
  limits: (l: CgroupLimits) => [file: string, value: string][];
}

const OWN_PREFIX = 'shellgrade-p';
const REMOVE_ATTEMPTS = 20;

export class GradingCgroups {
  private constructor(
    readonly version: 1 | 2,
    private readonly hierarchies: Hierarchy[],
  ) {}

  /** The groups this machine lets the service create, or undefined (no writable hierarchy). */
  static detect(mountRoot = '/sys/fs/cgroup', ownCgroups = readFileSync('/proc/self/cgroup', 'utf8')): GradingCgroups | undefined {
    const own = parseOwnGroups(ownCgroups);
    const v2 = detectV2(mountRoot, own.get(''));
    const v1 = v2 ? undefined : detectV1(mountRoot, own);
    const found = v2 ? new GradingCgroups(2, [v2]) : v1 && new GradingCgroups(1, v1);
    return found && found.prepare() ? found : undefined;
  }

  get controllers(): string[] {
    return this.hierarchies.map((h) => h.parent);
  }

  async create(name: string, limits: CgroupLimits): Promise<JobCgroup> {
    const dirs = this.hierarchies.map((h) => join(h.parent, name));
    await Promise.all(
      this.hierarchies.map(async (h, i) => {
        await mkdir(dirs[i], { recursive: true }); // (re)creates the parent another grader's close() removed
        for (const [file, value] of h.limits(limits)) await writeFile(join(dirs[i], file), value);
      }),
    );
    return { procsFiles: dirs.map((d) => join(d, 'cgroup.procs')), remove: () => removeAll(dirs) };
  }

  /** Removes this service's parent groups once its gradings are over (best effort: start-up sweeps too). */
  async dispose(): Promise<void> {
    await Promise.all(this.hierarchies.map((h) => rmdir(h.parent).catch(() => undefined)));
  }

  /** Creates this service's parent groups and removes those of services that are gone. */
  private prepare(): boolean {
    try {
      for (const h of this.hierarchies) {
        sweepDead(join(h.parent, '..'));
        if (!existsSync(h.parent)) mkdirSync(h.parent);
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
      };
    }
  }
  return undefined;
}

function detectV1(mountRoot: string, own: Map<string, string>): Hierarchy[] | undefined {
  const v1: [string, (l: CgroupLimits) => [string, string][]][] = [
    ['pids', (l) => [['pids.max', String(l.pids)]]],
    ['memory', (l) => [['memory.limit_in_bytes', String(l.memoryBytes)]]],
    ['cpu', () => []], // a group of its own is the point: the whole grading weighs one share
  ];
  const hierarchies: Hierarchy[] = [];
  for (const [controller, limits] of v1) {
    const mount = join(mountRoot, controller);
    const ownPath = own.get(controller);
    if (ownPath === undefined || !existsSync(join(mount, 'cgroup.procs'))) continue;
    hierarchies.push({ parent: join(mount, ownPath, `${OWN_PREFIX}${process.pid}`), limits });
  }
  // Without the pids controller a fork bomb is not contained: not worth the overhead.
  return hierarchies.some((h) => h.parent.includes('/pids/')) ? hierarchies : undefined;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
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
