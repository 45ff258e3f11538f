// One test's placement, from the plan to the undo: stale groups of a dead harness released, the
// two cpusets made, the system under test and the client moved in, checked against the kernel's
// Cpus_allowed_list, and undone at the end — also on an error, SIGINT or SIGTERM (the handlers
// undo synchronously, then let the signal do what it would have done).
import { procTable } from '../proc-times';
import { phase } from '../log';
import { UndoOnExit } from './undo-on-exit';
import { trespassers, type Trespass } from './allowed';
import { formatCpuList } from './cpu-list';
import { CpusetGroups, releaseStale } from './cpuset';
import type { CpusetFlavour } from './detect';
import type { PlacementPlan } from './plan';
import { sutPids } from './targets';

/** What the run folder keeps (meta.json, manifest.json): the plan and what was done. */
export interface PlacementRecord extends PlacementPlan {
  /** Processes moved into each group at the last placement (children born later are not listed: they are born inside). */
  sutProcesses?: number;
  clientProcesses?: number;
  /** Groups of a dead harness found and released before ours were made. */
  staleReleased?: string[];
  releasedAt?: string;
}

export class PlacementSession {
  private readonly groups: CpusetGroups;
  private undone = false;
  private readonly exitGuard: UndoOnExit;
  readonly record: PlacementRecord;

  constructor(plan: PlacementPlan, flavour: CpusetFlavour, tag = String(process.pid)) {
    if (plan.state !== 'on') throw new Error(`placement is ${plan.state}`);
    this.record = { ...plan, staleReleased: releaseStale(flavour) };
    if (this.record.staleReleased!.length) phase(`placement: released groups left by a dead harness: ${this.record.staleReleased!.join(', ')}`);
    this.groups = new CpusetGroups(flavour, { client: plan.clientCpus, sut: plan.sutCpus }, tag);
    this.exitGuard = new UndoOnExit(() => this.undo());
    try {
      this.groups.create();
    } catch (err) {
      this.undo();
      throw err;
    }
  }

  get dir(): string {
    return this.groups.dir;
  }

  /**
   * The system under test: `roots` (variant processes, native servers) with every descendant they
   * have now and their supervisor. Idempotent: called again after a restart or a re-up.
   */
  async placeSut(roots: number[]): Promise<number[]> {
    const pids = sutPids(roots, await procTable());
    const moved = this.groups.attach('sut', pids);
    this.record.sutProcesses = this.groups.members('sut').length;
    return moved;
  }

  /** The client: the harness itself (default) — k6 and every other child it starts later is born inside. */
  placeClient(pids: number[] = [process.pid]): number[] {
    const moved = this.groups.attach('client', pids);
    this.record.clientProcesses = this.groups.members('client').length;
    return moved;
  }

  /** Processes of the system under test now (every descendant of `roots`, born before or after placement) allowed on a client CPU. */
  async trespassers(roots: number[]): Promise<Trespass[]> {
    return trespassers(sutPids(roots, await procTable()), this.record.clientCpus);
  }

  /** Processes of the client allowed on a CPU of the system under test. */
  clientTrespassers(pids: number[]): Trespass[] {
    return trespassers(pids, this.record.sutCpus);
  }

  members(side: 'client' | 'sut'): number[] {
    return this.groups.members(side);
  }

  /** Every member home, the groups gone; safe to call twice. */
  undo(): void {
    if (this.undone) return;
    this.undone = true;
    this.exitGuard.detach();
    const moved = this.groups.release();
    this.record.releasedAt = new Date().toISOString();
    phase(`placement undone: ${moved} processes back in the whole machine's cpuset (CPU ${formatCpuList(this.groups.flavour.cpus)}), ${this.groups.dir} removed`);
  }
}
