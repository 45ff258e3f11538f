import type { CgroupFlavour } from '../src/cgroup-cpu';
import { MachineCpu, PROC_STAT_MACHINE } from '../src/machine-cpu';
import { countedCpu } from '../src/resource-sampler';

const v1: CgroupFlavour = { version: 1, root: '/sys/fs/cgroup/cpuacct' };

/** A root counter whose successive reads are the values given (null: unreadable then). */
function rootReads(...values: (number | null)[]) {
  return jest.fn((_flavour: CgroupFlavour) => (values.length > 1 ? values.shift()! : values[0]));
}

describe('MachineCpu: one method for the whole run', () => {
  it('reads the root cgroup when it is readable at start, and says so', () => {
    const machine = new MachineCpu(v1, rootReads(10, 12.5), () => 999);
    expect(machine.source).toBe('cgroup');
    expect(machine.accounting).toBe('cgroup v1 root (cpuacct.usage, ns)');
    expect(machine.cpuS()).toBe(12.5);
  });

  it('a root counter that fails mid-run gives no reading, never /proc/stat seconds in its place', () => {
    const machine = new MachineCpu(v1, rootReads(10, null, 11), () => 999);
    expect(machine.cpuS()).toBeNull();
    expect(machine.cpuS()).toBe(11);
  });

  it('without a readable root counter at start, /proc/stat for the whole run, even once the root becomes readable', () => {
    const machine = new MachineCpu(v1, rootReads(null, 5), () => 42);
    expect(machine.source).toBe('proc');
    expect(machine.accounting).toBe(PROC_STAT_MACHINE);
    expect(machine.cpuS()).toBe(42);
  });

  it('without cgroups at all, /proc/stat', () => {
    const machine = new MachineCpu(null, rootReads(5), () => 7);
    expect([machine.source, machine.cpuS()]).toEqual(['proc', 7]);
  });
});

describe('countedCpu: a group keeps the method of its first reading', () => {
  it('a group first read from its cgroup has no reading on a tick its cgroup cannot be read', () => {
    expect(countedCpu(undefined, 3)).toEqual({ source: 'cgroup', cpuS: 3 });
    expect(countedCpu('cgroup', null)).toEqual({ source: 'cgroup', cpuS: null });
  });

  it('a group first read from /proc stays there, even once its cgroup can be read', () => {
    expect(countedCpu(undefined, null)).toEqual({ source: 'proc', cpuS: null });
    expect(countedCpu('proc', 3)).toEqual({ source: 'proc', cpuS: null });
  });
});
