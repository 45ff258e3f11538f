// The whole machine's CPU for a run, read one way from start to end: the root cgroup's counter
// (the one the process groups are read from, so the groups are a part of it by construction)
// where it can be read when sampling starts, else /proc/stat's ticks. Chosen once: a run whose
// counter failed mid-way and fell back would subtract seconds of one method from another's.
import { cpus } from 'node:os';
import { rootCpuS, type CgroupFlavour } from './cgroup-cpu';

/** How the machine's CPU is read without a root cgroup counter. */
export const PROC_STAT_MACHINE = '/proc/stat ticks (user + nice + system + irq)';

/** Busy CPU seconds of the whole machine (all cores, every process) from os.cpus(). */
export function machineBusyS(): number {
  let ms = 0;
  for (const c of cpus()) ms += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return ms / 1000;
}

export class MachineCpu {
  readonly source: 'cgroup' | 'proc';

  /** `readRoot`: the root counter's reader (a test's stand-in; rootCpuS otherwise). */
  constructor(
    private readonly flavour: CgroupFlavour | null,
    private readonly readRoot: (flavour: CgroupFlavour) => number | null = rootCpuS,
    private readonly readProc: () => number = machineBusyS,
  ) {
    this.source = flavour && readRoot(flavour) !== null ? 'cgroup' : 'proc';
  }

  /** What meta.json records as the method. */
  get accounting(): string {
    if (this.source === 'proc' || !this.flavour) return PROC_STAT_MACHINE;
    return `cgroup v${this.flavour.version} root (${this.flavour.version === 1 ? 'cpuacct.usage, ns' : 'cpu.stat'})`;
  }

  /** CPU seconds by the method chosen at start; null when it cannot be read now (that tick has no machine reading). */
  cpuS(): number | null {
    return this.source === 'cgroup' ? this.readRoot(this.flavour!) : this.readProc();
  }
}
