// The scale model's CPU quotas on each cgroup hierarchy, against temporary folders shaped like
// them: v1's cpu controller (cpu.cfs_quota_us / cpu.cfs_period_us, alone or co-mounted with
// cpuacct), v2's cpu.max ("quota period") where the cpu controller is delegated, and a machine
// like this one (v1 cpu, a unified mount with no controllers). Detection reads what is there and
// never assumes; the writes land in the files each version has.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuQuotaGroups, detectCpuQuota } from '../../src/placement/cpu-quota';

const tree = (files: Record<string, string>): string => {
  const base = mkdtempSync(join(tmpdir(), 'sg-cgroup-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return base;
};
const read = (base: string, path: string): string => readFileSync(join(base, path), 'utf8');
const everyone = (): boolean => true;

const V1 = { 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000', 'cpu/cgroup.procs': '', 'unified/cgroup.controllers': '' };
const V2_ROOT = { 'cgroup.controllers': 'cpuset cpu io memory pids', 'cgroup.subtree_control': '' };
const OWN = '0::/user.slice/user-1000.slice/session-3.scope\n';

describe('detectCpuQuota: which hierarchy offers a CPU quota, read from the tree', () => {
  it('v1: the cpu controller (here: /sys/fs/cgroup/cpu beside a unified mount with no controllers)', () => {
    const base = tree(V1);
    expect(detectCpuQuota(base, '', everyone)).toEqual({ available: true, flavour: { version: 1, mount: join(base, 'cpu'), parent: join(base, 'cpu'), home: join(base, 'cpu') } });
  });

  it('v1 co-mounted as cpu,cpuacct', () => {
    const base = tree({ 'cpu,cpuacct/cpu.cfs_quota_us': '-1', 'cpu,cpuacct/cgroup.procs': '' });
    expect(detectCpuQuota(base, '', everyone)).toMatchObject({ available: true, flavour: { version: 1, mount: join(base, 'cpu,cpuacct') } });
  });

  it('no v1 cpu and a unified mount without cpu: unavailable, saying what each offers', () => {
    const base = tree({ 'unified/cgroup.controllers': '' });
    const d = detectCpuQuota(base, '', everyone);
    expect(d.available).toBe(false);
    if (!d.available) expect(d.reason).toBe(`no cgroup v1 cpu controller under ${base}; cgroup v2 at ${join(base, 'unified')} offers [] without cpu`);
  });

  it('v2 at the root, writable: groups under the root', () => {
    const base = tree(V2_ROOT);
    expect(detectCpuQuota(base, '0::/\n', everyone)).toEqual({ available: true, flavour: { version: 2, mount: base, parent: base, home: base } });
  });

  it('v2 delegated: beside our own cgroup when its parent offers cpu; refused, with why, when the delegation left cpu out', () => {
    const slice = 'user.slice/user-1000.slice';
    const rootNotOurs = (p: string): boolean => p.includes('user-1000.slice');
    const delegated = tree({ ...V2_ROOT, [`${slice}/cgroup.controllers`]: 'cpu memory pids', [`${slice}/cgroup.subtree_control`]: '' });
    expect(detectCpuQuota(delegated, OWN, rootNotOurs)).toEqual({
      available: true,
      flavour: { version: 2, mount: delegated, parent: join(delegated, slice), home: join(delegated, slice, 'session-3.scope') },
    });
    const memoryOnly = tree({ ...V2_ROOT, [`${slice}/cgroup.controllers`]: 'memory pids', [`${slice}/cgroup.subtree_control`]: '' });
    const d = detectCpuQuota(memoryOnly, OWN, rootNotOurs);
    expect(d.available).toBe(false);
    if (!d.available) {
      expect(d.reason).toContain(`cgroup v2 at ${memoryOnly} is not writable (not delegated to this user)`);
      expect(d.reason).toContain(`cgroup v2 at ${join(memoryOnly, slice)} offers [memory pids] without cpu: the cpu controller is not delegated there`);
    }
  });
});

describe('CpuQuotaGroups: the quota in the files of each version', () => {
  it('v1: cpu.cfs_period_us and cpu.cfs_quota_us for the root and each group; lifted to -1 on release', () => {
    const base = tree(V1);
    const d = detectCpuQuota(base, '', everyone);
    if (!d.available) throw new Error(d.reason);
    const g = new CpuQuotaGroups(d.flavour);
    g.apply(100000, 28000, { 'sg-monolith-0': 14000, postgres: 14000 });
    expect(read(base, 'cpu/sg-scale/cpu.cfs_quota_us')).toBe('28000');
    expect(read(base, 'cpu/sg-scale/cpu.cfs_period_us')).toBe('100000');
    expect(read(base, 'cpu/sg-scale/sg-monolith-0/cpu.cfs_quota_us')).toBe('14000');
    expect(g.quotaOf('postgres')).toEqual({ quotaUs: 14000, periodUs: 100000 });
    expect(g.pathOf('postgres')).toBe('/sg-scale/postgres');
    g.release();
    // A temporary folder keeps what a cgroupfs would drop on rmdir: the files show the lift.
    expect(read(base, 'cpu/sg-scale/postgres/cpu.cfs_quota_us')).toBe('-1');
    expect(read(base, 'cpu/sg-scale/cpu.cfs_quota_us')).toBe('-1');
  });

  it('v2: "+cpu" in subtree_control down the way, cpu.max as "quota period"; "max" on release', () => {
    const base = tree(V2_ROOT);
    const d = detectCpuQuota(base, '0::/\n', everyone);
    if (!d.available) throw new Error(d.reason);
    const g = new CpuQuotaGroups(d.flavour);
    g.apply(100000, 28000, { 'sg-monolith-0': 14000 });
    expect(read(base, 'cgroup.subtree_control')).toBe('+cpu');
    expect(read(base, 'sg-scale/cgroup.subtree_control')).toBe('+cpu');
    expect(read(base, 'sg-scale/cpu.max')).toBe('28000 100000');
    expect(read(base, 'sg-scale/sg-monolith-0/cpu.max')).toBe('14000 100000');
    expect(g.quotaOf('sg-monolith-0')).toEqual({ quotaUs: 14000, periodUs: 100000 });
    g.release();
    expect(read(base, 'sg-scale/sg-monolith-0/cpu.max')).toBe('max');
  });
});
