// Samples CPU and memory of every process of the variant, of the native servers it uses and of
// k6 once a second. A group is a root pid and all its descendants (pidtree): postgres backends,
// grader children, HAProxy, and so on. CPU comes from a cgroup per group when the machine offers
// one (cgroup-cpu.ts: forked children, sandboxed graders included, are counted), else from
// /proc (own + reaped children). Memory is PSS (shared pages split among their users: the
// PostgreSQL shared buffers are counted once, not once per backend); RSS is kept beside it.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { CpuCgroups, detectCgroup, parsePss, parseSchedstat } from './cgroup-cpu';
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
  /** Sum of the PSS of the group's live processes. */
  pssBytes: number;
  /** Where cpuS comes from: the group's cgroup, or /proc of its live processes. */
  cpuSource: 'cgroup' | 'proc';
  /** k6 only: seconds its threads spent waiting for a CPU / running, and times scheduled, cumulative (schedstat). */
  waitS?: number;
  runS?: number;
  slices?: number;
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
  pids: number[];
  cpuTicks: number;
  rssBytes: number;
  pssBytes: number;
}

async function pssOf(pid: number): Promise<number> {
  try {
    return parsePss(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8')) ?? 0;
  } catch {
    return 0;
  }
}

async function readGroup(root: number, table: { ppid: number; pid: number }[]): Promise<GroupReading> {
  const pids = descendantsOf(root, table);
  let cpuTicks = 0;
  let rssBytes = 0;
  let pssBytes = 0;
  const alive: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const [times, usage, pss] = await Promise.all([procTimes(pid), pidusage(pid).catch(() => null), pssOf(pid)]);
      if (!times) return;
      alive.push(pid);
      cpuTicks += times.ownTicks + times.reapedChildrenTicks;
      rssBytes += usage?.memory ?? 0;
      pssBytes += pss;
    }),
  );
  return { pids: alive, cpuTicks, rssBytes, pssBytes };
}

type Sched = { runS: number; waitS: number; slices: number };
const NO_SCHED: Sched = { runS: 0, waitS: 0, slices: 0 };

/** Run-queue wait, run time and time slices summed over every thread of a process. */
async function schedOf(pid: number): Promise<Sched | null> {
  try {
    const tids = await readdir(`/proc/${pid}/task`);
    const all = await Promise.all(tids.map((t) => readFile(`/proc/${pid}/task/${t}/schedstat`, 'utf8').then(parseSchedstat).catch(() => NO_SCHED)));
    return all.reduce((a, b) => ({ runS: a.runS + b.runS, waitS: a.waitS + b.waitS, slices: a.slices + b.slices }), NO_SCHED);
  } catch {
    return null;
  }
}

export class ResourceSampler {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private readonly startMs = Date.now();
  private readonly firstTicks = new Map<string, number>();
  private readonly lastTicks = new Map<string, { ticks: number; atMs: number }>();
  readonly samples: ResourceSample[] = [];

  private run = 0;
  private readonly cgroups: CpuCgroups | null;

  /**
   * `groups` is read at every tick: groups may come and go (k6 exists only during runs).
   * `useCgroups` false keeps the /proc accounting only (tests, or a machine without cgroups).
   */
  constructor(private readonly groups: () => ProcessGroup[], useCgroups = true) {
    const flavour = useCgroups ? detectCgroup() : null;
    this.cgroups = flavour ? new CpuCgroups(flavour) : null;
  }

  /** "cgroup v1", "cgroup v2" or "proc": recorded in machine.json. */
  get cpuAccounting(): string {
    return this.cgroups ? `cgroup v${this.cgroups.flavour.version}` : 'proc';
  }

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
    this.cgroups?.release();
    return this.samples;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      const hz = ticksPerSecond();
      const table = await processTable();
      const readings = await Promise.all(this.groups().map(async (g) => ({ g, r: await this.readCounted(g, table, hz) })));
      const machine: GroupReading & { source: 'cgroup' | 'proc' } = { pids: table.map((t) => t.pid), cpuTicks: machineBusyS() * hz, rssBytes: totalmem() - freemem(), pssBytes: totalmem() - freemem(), source: 'proc' };
      readings.push({ g: { name: MACHINE_GROUP, role: 'machine', pid: 0 }, r: machine });
      const k6 = this.groups().find((g) => g.role === 'load');
      const sched = k6 ? await schedOf(k6.pid) : null;
      for (const { g, r } of readings) {
        if (r.pids.length === 0) continue;
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
          pids: r.pids.length,
          cpuPct: Math.round(cpuPct * 10) / 10,
          cpuS: Math.max(0, (r.cpuTicks - (this.firstTicks.get(g.name) ?? r.cpuTicks)) / hz),
          rssBytes: r.rssBytes,
          pssBytes: r.pssBytes,
          cpuSource: r.source,
          ...(g.role === 'load' && sched ? { waitS: sched.waitS, runS: sched.runS, slices: sched.slices } : {}),
        });
      }
    } finally {
      this.busy = false;
    }
  }

  /** A group's reading, its CPU from its cgroup (new members attached first) when there is one. */
  private async readCounted(g: ProcessGroup, table: { ppid: number; pid: number }[], hz: number): Promise<GroupReading & { source: 'cgroup' | 'proc' }> {
    const r = await readGroup(g.pid, table);
    if (!this.cgroups || r.pids.length === 0) return { ...r, source: 'proc' };
    this.cgroups.attach(g.name, r.pids);
    const cpuS = this.cgroups.cpuS(g.name);
    return cpuS === null ? { ...r, source: 'proc' } : { ...r, cpuTicks: cpuS * hz, source: 'cgroup' };
  }
}
