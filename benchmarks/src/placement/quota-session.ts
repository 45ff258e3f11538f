// One test's scale model, from the plan to the undo: a quota group per container of the system
// under test (each variant process with every descendant it has — zygote workers, sandboxes — and
// each native server with its children), the whole system's quota on the root, the throttling
// read around each measured run, and the quotas lifted at the end, also on an error or a signal.
import { procTable } from '../proc-times';
import { phase } from '../log';
import { UndoOnExit } from './undo-on-exit';
import { descendantsOf } from '../resource-sampler';
import { CpuQuotaGroups, throttlingDelta, type CpuQuotaFlavour, type Throttling } from './cpu-quota';
import type { TestbedPlan, TestbedRecord } from './testbed';

/** A container of the system under test: its name (pm2 app or server) and its root pid. */
export interface Container {
  name: string;
  pid: number;
}

/** Servers that are not the system under test: tracing runs beside it, unquota'd, as the paper had none. */
const NOT_CONTAINERS = new Set(['jaeger']);

/** The quota of each container of a scaled plan, and the whole system's. */
export function quotasFor(plan: Extract<TestbedPlan, { testbed: 'scaled' }>, containers: Container[]): { root: number; groups: Record<string, number> } {
  return { root: plan.model.sutQuotaUs, groups: Object.fromEntries(containers.filter((c) => !NOT_CONTAINERS.has(c.name)).map((c) => [c.name, plan.model.quotaUs])) };
}

export class QuotaSession {
  readonly groups: CpuQuotaGroups;
  readonly record: TestbedRecord & { testbed: 'scaled' };
  private runStart: Record<string, Throttling> = {};
  private undone = false;
  private readonly exitGuard: UndoOnExit;

  constructor(plan: Extract<TestbedPlan, { testbed: 'scaled' }>, flavour: CpuQuotaFlavour) {
    this.groups = new CpuQuotaGroups(flavour);
    this.record = { ...plan, quotas: {}, throttling: [] };
    this.exitGuard = new UndoOnExit(() => this.undo());
  }

  /** The root's path the launcher tells each process (SG_CPU_CGROUP = <root>/<name>): its gradings' groups nest under its quota. */
  get rootPath(): string {
    return this.groups.pathOf();
  }

  /**
   * Quotas written and every container's processes moved in (idempotent: again after a restart
   * or a re-up). Returns how many processes moved.
   */
  async apply(containers: Container[]): Promise<number> {
    const model = this.record.model;
    const q = quotasFor(this.record, containers);
    this.groups.apply(model.periodUs, q.root, q.groups);
    const table = await procTable();
    let moved = 0;
    for (const c of containers) {
      if (!(c.name in q.groups) || !c.pid) continue;
      moved += this.groups.attach(c.name, descendantsOf(c.pid, table)).length;
    }
    const quotas: [string, number][] = [['*', q.root], ...Object.entries(q.groups)];
    this.record.quotas = Object.fromEntries(quotas.map(([name, quotaUs]) => [name, { quotaUs, periodUs: model.periodUs }]));
    return moved;
  }

  /** Marks the start of a measured run's load. */
  runStarted(): void {
    this.runStart = this.groups.readThrottling();
  }

  /** The run's throttling per group (cpu.stat deltas since runStarted), kept in the record and returned. */
  runEnded(run: number): Record<string, Throttling> {
    const byGroup = throttlingDelta(this.runStart, this.groups.readThrottling());
    this.record.throttling!.push({ run, byGroup });
    return byGroup;
  }

  /** Quotas lifted, members home; safe to call twice. */
  undo(): void {
    if (this.undone) return;
    this.undone = true;
    this.exitGuard.detach();
    const moved = this.groups.release();
    phase(`scale model undone: quotas lifted, ${moved} processes back in ${this.groups.flavour.home}`);
  }
}

/** "sg-monolith-0 12/140 periods throttled (0.31 s), postgres 0/80 …" for the run's log line. */
export function throttlingText(byGroup: Record<string, Throttling>): string {
  return Object.entries(byGroup)
    .filter(([name]) => name !== '*')
    .map(([name, t]) => `${name} ${t.nrThrottled}/${t.nrPeriods} periods throttled (${t.throttledS.toFixed(2)} s)`)
    .join(', ');
}
