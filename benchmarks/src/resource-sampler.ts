// Samples CPU and memory of every process of the variant, of the native servers it uses, of
// k6 and of the harness itself once a second. A group is a root pid and all its descendants:
// postgres backends, grader children, HAProxy, and so on. CPU comes from a cgroup per group when
// the machine offers one (cgroup-cpu.ts: forked children, sandboxed graders included, are
// counted), else from /proc (own + reaped children). Memory is PSS (shared pages split among
// their users: the PostgreSQL shared buffers are counted once, not once per backend), read every
// PSS_EVERY_TICKS ticks (smaps_rollup walks a process's page tables: tens of ms for k6's GiBs);
// RSS is kept beside it at every tick. The harness (this process: sampling, driving k6) is a
// group of its own so that "machine minus client" leaves out the measuring as well as the load.
// The machine's CPU is read from the root cgroup where there is one, in the groups' own unit: read
// from /proc/stat's ticks (which leave softirq out), the groups added up to more than the machine
// (a negative "rest"). /proc/stat remains the fallback, and a run records which one it used.
// Every counter keeps the method of its first reading: a tick that cannot read it that way has no
// reading of it, rather than one in another method's unit.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { freemem, totalmem } from 'node:os';
import { CpuCgroups, detectCgroup, parsePss, parseSchedstat } from './cgroup-cpu';
import { MachineCpu } from './machine-cpu';
import { procTable, type ProcStat } from './proc-times';

/** Pseudo-group: the whole machine (every process, k6 included): the root cgroup, else /proc/stat via os.cpus(). */
export const MACHINE_GROUP = 'machine';
/** Pseudo-group: this process (the sampler, the k6 driver), its own CPU only. */
export const HARNESS_GROUP = 'harness';
/** Roles that are not the system under test: the machine total, the load generator, the harness. */
const NOT_UNDER_TEST = new Set(['machine', 'load', 'harness']);

/** Whether a sample belongs to the system under test (variant processes and the servers it uses). */
export function underTest(s: { role: string }): boolean {
  return !NOT_UNDER_TEST.has(s.role);
}

/** PSS is read every this many ticks; in between a group keeps its last PSS. */
export const PSS_EVERY_TICKS = 5;

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
  /** Sum of the PSS of the group's live processes (the load generator's: its RSS). */
  pssBytes: number;
  /** Where cpuS comes from: the group's cgroup, or /proc of its live processes. */
  cpuSource: 'cgroup' | 'proc';
  /** k6 only: seconds its threads spent waiting for a CPU / running, and times scheduled, cumulative (schedstat). */
  waitS?: number;
  runS?: number;
  slices?: number;
}

/** A getconf value, read once per process (the fallback when getconf is missing or says nothing). */
function getconfOnce(name: string, fallback: number): () => number {
  let value: number | null = null;
  return () => {
    if (value === null) {
      try {
        value = Number(execFileSync('getconf', [name]).toString().trim()) || fallback;
      } catch {
        value = fallback;
      }
    }
    return value;
  };
}

const ticksPerSecond = getconfOnce('CLK_TCK', 100);
const pageSize = getconfOnce('PAGESIZE', 4096);

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

/** A group's live processes, CPU ticks and RSS from the table; its PSS when `readPss`, else null. */
async function readGroup(root: number, table: ProcStat[], byPid: Map<number, ProcStat>, readPss: boolean): Promise<GroupReading & { pssRead: boolean }> {
  const alive = descendantsOf(root, table).filter((pid) => byPid.has(pid));
  let cpuTicks = 0;
  let rssBytes = 0;
  for (const pid of alive) {
    const p = byPid.get(pid)!;
    cpuTicks += p.ownTicks + p.reapedChildrenTicks;
    rssBytes += p.rssPages * pageSize();
  }
  const pssBytes = readPss ? (await Promise.all(alive.map(pssOf))).reduce((a, b) => a + b, 0) : 0;
  return { pids: alive, cpuTicks, rssBytes, pssBytes, pssRead: readPss };
}

/** This process's own CPU (user + system), in clock ticks. */
function harnessReading(hz: number): GroupReading {
  const { user, system } = process.cpuUsage();
  const rss = process.memoryUsage.rss();
  return { pids: [process.pid], cpuTicks: ((user + system) / 1e6) * hz, rssBytes: rss, pssBytes: rss };
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
  private ticks = 0;
  private readonly lastPss = new Map<string, number>();
  private readonly cgroups: CpuCgroups | null;
  private readonly machineCpu: MachineCpu;
  /** Each group's CPU method, fixed at its first reading. */
  private readonly groupSources = new Map<string, 'cgroup' | 'proc'>();

  /**
   * `groups` is read at every tick: groups may come and go (k6 exists only during runs).
   * `useCgroups` false keeps the /proc accounting only (tests, or a machine without cgroups).
   */
  constructor(private readonly groups: () => ProcessGroup[], useCgroups = true) {
    const flavour = useCgroups ? detectCgroup() : null;
    this.cgroups = flavour ? new CpuCgroups(flavour) : null;
    this.machineCpu = new MachineCpu(flavour);
  }

  /** "cgroup v1", "cgroup v2" or "proc": recorded in machine.json. */
  get cpuAccounting(): string {
    return this.cgroups ? `cgroup v${this.cgroups.flavour.version}` : 'proc';
  }

  /** Where the machine's CPU comes from: the root cgroup's counter, else /proc/stat; recorded in meta.json. */
  get machineCpuAccounting(): string {
    return this.machineCpu.accounting;
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
    this.cgroups?.release();
    return this.samples;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      const hz = ticksPerSecond();
      const table = await procTable();
      const byPid = new Map(table.map((p) => [p.pid, p]));
      const readPss = this.ticks++ % PSS_EVERY_TICKS === 0;
      const readings = await Promise.all(this.groups().map(async (g) => ({ g, r: await this.readCounted(g, table, byPid, readPss, hz) })));
      const machineCpuS = this.machineCpu.cpuS();
      const machine: GroupReading & { source: 'cgroup' | 'proc' } = {
        pids: machineCpuS === null ? [] : table.map((t) => t.pid), // no pids: no sample this tick
        cpuTicks: (machineCpuS ?? 0) * hz,
        rssBytes: totalmem() - freemem(),
        pssBytes: totalmem() - freemem(),
        source: this.machineCpu.source,
      };
      readings.push({ g: { name: MACHINE_GROUP, role: 'machine', pid: 0 }, r: machine });
      readings.push({ g: { name: HARNESS_GROUP, role: 'harness', pid: process.pid }, r: { ...harnessReading(hz), source: 'proc' } });
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

  /**
   * A group's reading, its CPU from its cgroup (new members attached first) when there is one.
   * PSS between two reads is the last one read; the load generator's memory is its RSS (it is not
   * the system under test, and its page tables are the costliest to walk).
   */
  private async readCounted(g: ProcessGroup, table: ProcStat[], byPid: Map<number, ProcStat>, readPss: boolean, hz: number): Promise<GroupReading & { source: 'cgroup' | 'proc' }> {
    // A group seen for the first time reads its PSS at once rather than showing 0 until the next PSS tick.
    const fresh = await readGroup(g.pid, table, byPid, g.role !== 'load' && (readPss || !this.lastPss.has(g.name)));
    const pssBytes = g.role === 'load' ? fresh.rssBytes : fresh.pssRead ? fresh.pssBytes : (this.lastPss.get(g.name) ?? 0);
    if (fresh.pssRead) this.lastPss.set(g.name, pssBytes);
    const r = { pids: fresh.pids, cpuTicks: fresh.cpuTicks, rssBytes: fresh.rssBytes, pssBytes };
    if (r.pids.length === 0) return { ...r, source: 'proc' };
    this.cgroups?.attach(g.name, r.pids);
    const cgroupCpuS = this.cgroups ? this.cgroups.cpuS(g.name) : null;
    const counted = countedCpu(this.groupSources.get(g.name), cgroupCpuS);
    this.groupSources.set(g.name, counted.source);
    if (counted.source === 'proc') return { ...r, source: 'proc' };
    return counted.cpuS === null ? { ...r, pids: [], source: 'cgroup' } : { ...r, cpuTicks: counted.cpuS * hz, source: 'cgroup' };
  }
}

/**
 * A group's CPU method and, for a cgroup-counted group, its reading: the method of its first
 * reading is kept. A group counted by its cgroup whose counter cannot be read this tick has no
 * reading (null), never /proc's ticks, which count other things (live members and reaped
 * children only) from another starting point.
 */
export function countedCpu(known: 'cgroup' | 'proc' | undefined, cgroupCpuS: number | null): { source: 'cgroup' | 'proc'; cpuS: number | null } {
  const source = known ?? (cgroupCpuS === null ? 'proc' : 'cgroup');
  return { source, cpuS: source === 'cgroup' ? cgroupCpuS : null };
}
