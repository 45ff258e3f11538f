// Samples CPU and memory of every process of the variant, of the native servers it uses and of
// k6 once a second. A group is a root pid and all its descendants (pidtree): postgres backends,
// grader children, HAProxy, and so on.
import { execFileSync } from 'node:child_process';
import { cpus, freemem, totalmem } from 'node:os';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { procTimes } from './proc-times';

/** Pseudo-group: the whole machine (every process, k6 included), from /proc/stat via os.cpus(). */
export const MACHINE_GROUP = 'machine';

export interface ProcessGroup {
  name: string;
  role: string;
  pid: number;
}

export interface ResourceSample {
  run: number;
  tS: number;
  epochMs: number;
  group: string;
  role: string;
  pids: number;
  /** CPU used during the last interval, 100 = one core. */
  cpuPct: number;
  /** CPU seconds used by the group since the sampler started (reaped children included). */
  cpuS: number;
  rssBytes: number;
}

let clockTicks: number | null = null;
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Every (ppid, pid) pair of the machine: one `ps` per tick for all groups. */
async function processTable(): Promise<{ ppid: number; pid: number }[]> {
  try {
    return await pidtree(-1, { advanced: true });
  } catch {
    return [];
  }
}

/** A root pid and all its descendants, from the process table. */
export function descendantsOf(root: number, table: { ppid: number; pid: number }[]): number[] {
  const children = new Map<number, number[]>();
  for (const { ppid, pid } of table) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const c of children.get(out[i]) ?? []) if (!out.includes(c)) out.push(c);
  return out;
}

/** Busy CPU seconds of the whole machine (all cores, every process) from os.cpus(). */
export function machineBusyS(): number {
  let ms = 0;
  for (const c of cpus()) ms += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return ms / 1000;
}

interface GroupReading {
  pids: number;
  cpuTicks: number;
  rssBytes: number;
}

async function readGroup(root: number, table: { ppid: number; pid: number }[]): Promise<GroupReading> {
  const pids = descendantsOf(root, table);
  let cpuTicks = 0;
  let rssBytes = 0;
  let alive = 0;
  await Promise.all(
    pids.map(async (pid) => {
      const [times, usage] = await Promise.all([
        procTimes(pid),
        pidusage(pid).catch(() => null),
      ]);
      if (!times) return;
      alive++;
      cpuTicks += times.ownTicks + times.reapedChildrenTicks;
      rssBytes += usage?.memory ?? 0;
    }),
  );
  return { pids: alive, cpuTicks, rssBytes };
}

export class ResourceSampler {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private readonly startMs = Date.now();
  private readonly firstTicks = new Map<string, number>();
  private readonly lastTicks = new Map<string, { ticks: number; atMs: number }>();
  readonly samples: ResourceSample[] = [];

  private run = 0;

  /** `groups` is read at every tick: groups may come and go (k6 exists only during runs). */
  constructor(private readonly groups: () => ProcessGroup[]) {}

  /** Labels the next samples with a run number (0 = between runs) and samples right away. */
  async mark(run: number): Promise<void> {
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    this.run = run;
    await this.tick();
  }

  start(intervalMs = 1000): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), intervalMs);
  }

  async stop(): Promise<ResourceSample[]> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    await this.tick();
    pidusage.clear();
    return this.samples;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      const hz = ticksPerSecond();
      const table = await processTable();
      const readings = await Promise.all(this.groups().map(async (g) => ({ g, r: await readGroup(g.pid, table) })));
      readings.push({ g: { name: MACHINE_GROUP, role: 'machine', pid: 0 }, r: { pids: table.length, cpuTicks: machineBusyS() * hz, rssBytes: totalmem() - freemem() } });
      for (const { g, r } of readings) {
        if (r.pids === 0) continue;
        if (!this.firstTicks.has(g.name)) this.firstTicks.set(g.name, r.cpuTicks);
        const last = this.lastTicks.get(g.name);
        const cpuPct = last && now > last.atMs ? Math.max(0, ((r.cpuTicks - last.ticks) / hz) / ((now - last.atMs) / 1000)) * 100 : 0;
        this.lastTicks.set(g.name, { ticks: r.cpuTicks, atMs: now });
        this.samples.push({
          run: this.run,
          tS: Math.round((now - this.startMs) / 100) / 10,
          epochMs: now,
          group: g.name,
          role: g.role,
          pids: r.pids,
          cpuPct: Math.round(cpuPct * 10) / 10,
          cpuS: Math.max(0, (r.cpuTicks - (this.firstTicks.get(g.name) ?? r.cpuTicks)) / hz),
          rssBytes: r.rssBytes,
        });
      }
    } finally {
      this.busy = false;
    }
  }
}
