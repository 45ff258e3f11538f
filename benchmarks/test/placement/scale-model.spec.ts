// The scale model's arithmetic (s, period, quotas) for fabricated and real plans, the testbed
// plan, and the quota groups on fabricated cgroup trees (v1 and v2): what is written, who is
// moved, what throttling reads back.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configurationsOf, fits, PAPER_SERVER, scaleModelFor, scaleModelText, type Configuration } from '../../src/placement/scale-model';
import { cgroupOf, CpuQuotaGroups, detectCpuQuota, parseThrottling, throttlingDelta } from '../../src/placement/cpu-quota';
import { planTestbed } from '../../src/placement/testbed';
import { quotasFor } from '../../src/placement/quota-session';
import { placementRequest } from '../../src/placement/options';

const config = (variant: string, n: number): Configuration => ({ variant, containers: Array.from({ length: n }, (_, i) => `${variant}-${i}`) });
/** 12 monolith replicas + HAProxy + PostgreSQL: the paper's MON×12. */
const MON_X12 = config('mon-x12', 14);

describe('scaleModelFor: one paper CPU × s per container, s fitting the largest configuration', () => {
  it('12 replicas + PostgreSQL + HAProxy on 1 CPU: s = 1/14, a 1 ms quota every 14 ms, the whole system 14 ms', () => {
    const m = scaleModelFor([config('naked-mon', 2), config('mon-x2', 4), MON_X12], 1);
    expect(m.s).toBeCloseTo(1 / 14, 12);
    expect({ periodUs: m.periodUs, quotaUs: m.quotaUs, sutQuotaUs: m.sutQuotaUs, largest: m.largest.variant }).toEqual({ periodUs: 14_000, quotaUs: 1_000, sutQuotaUs: 14_000, largest: 'mon-x12' });
    // The largest configuration's quotas add up to the system's CPUs: every container gets its whole share at once.
    expect(MON_X12.containers.length * m.quotaUs).toBe(m.periodUs * 1);
    expect(fits(m, MON_X12)).toBe(true);
    expect(m.paperPeakScaled).toBe(14.29);
  });

  it('2 CPUs and 4 containers: s = 0.5 in the 10 ms floor period (a short period keeps throttling stalls short)', () => {
    const m = scaleModelFor([config('msa-1-1', 4)], 2);
    expect({ s: m.s, periodUs: m.periodUs, quotaUs: m.quotaUs, sutQuotaUs: m.sutQuotaUs }).toEqual({ s: 0.5, periodUs: 10_000, quotaUs: 5_000, sutQuotaUs: 20_000 });
  });

  it("more containers than the paper's 24 threads: s fits 24 of them, and the rest contend for the system's quota as they did there", () => {
    const m = scaleModelFor([config('msa-12-12', 28)], 1);
    expect(m.s).toBeCloseTo(1 / PAPER_SERVER.threads, 12);
    expect({ periodUs: m.periodUs, quotaUs: m.quotaUs, sutQuotaUs: m.sutQuotaUs }).toEqual({ periodUs: 24_000, quotaUs: 1_000, sutQuotaUs: 24_000 });
    expect(fits(m, config('msa-12-12', 28))).toBe(false);
    expect(fits(m, config('x', 24))).toBe(true);
  });

  it('never above one paper CPU per container, and a given s is kept (pinned)', () => {
    expect(scaleModelFor([config('naked-mon', 2)], 8).s).toBe(1);
    expect(scaleModelFor([config('naked-mon', 2)], 8).periodUs).toBe(10_000);
    const pinned = scaleModelFor([MON_X12], 1, 0.05);
    expect({ s: pinned.s, pinned: pinned.pinned, periodUs: pinned.periodUs, quotaUs: pinned.quotaUs }).toEqual({ s: 0.05, pinned: true, periodUs: 20_000, quotaUs: 1_000 });
    expect(scaleModelText(pinned)).toMatch(/^s = 0\.0500 \(given\): 1 ms every 20 ms per container/);
  });

  it('refuses what the kernel cannot do or the plan does not say', () => {
    expect(() => scaleModelFor([], 1)).toThrow(/at least one configuration/);
    expect(() => scaleModelFor([MON_X12], 0)).toThrow(/CPUs of the system under test/);
    expect(() => scaleModelFor([MON_X12], 1, 0.005)).toThrow(/below 0\.01/);
  });

  it("counts the presets' containers from their specs: replicas, HAProxy, the servers (Jaeger is not the system)", () => {
    const byName = Object.fromEntries(configurationsOf(['naked-mon', 'mon-x12', 'msa-1-1']).map((c) => [c.variant, c.containers]));
    expect(byName['naked-mon']).toEqual(['sg-monolith-0', 'postgres']);
    expect(byName['msa-1-1']).toEqual(['sg-leftover-0', 'sg-exercise-0', 'sg-gateway-0', 'postgres']);
    expect(byName['mon-x12']).toEqual(expect.arrayContaining(['sg-monolith-11', 'sg-haproxy', 'postgres']));
    expect(byName['mon-x12']).not.toContain('jaeger');
  });
});

describe('the testbed plan', () => {
  const v1 = { available: true as const, flavour: { version: 1 as const, mount: '/sys/fs/cgroup/cpu', parent: '/sys/fs/cgroup/cpu', home: '/sys/fs/cgroup/cpu' } };
  const plans = (variants: string[]) => variants.map((v) => (v === 'mon-x12' ? MON_X12 : config(v, 2)));

  it('unscaled unless asked; --scale alone is a mistake', () => {
    expect(planTestbed(undefined, 'naked-mon', 1, v1)).toEqual({ testbed: 'unscaled' });
    expect(() => planTestbed({ testbed: 'unscaled', scale: 0.1 }, 'naked-mon', 1, v1)).toThrow(/--scale needs --testbed scaled/);
  });

  it("scaled: s fits the plan's largest configuration, not the run's own", () => {
    const p = planTestbed({ testbed: 'scaled', planVariants: ['naked-mon', 'mon-x12'] }, 'naked-mon', 1, v1, 1, plans);
    expect(p).toMatchObject({ testbed: 'scaled', cgroup: 1, root: '/sg-scale', model: { quotaUs: 1000, periodUs: 14_000, largest: { variant: 'mon-x12' } } });
  });

  it('scaled where the machine cannot make quotas is an error, never a silent unscaled run', () => {
    expect(() => planTestbed({ testbed: 'scaled' }, 'naked-mon', 1, { available: false, reason: 'no cpu controller' }, undefined, plans)).toThrow(/needs a CPU quota per process.*no cpu controller/);
    const v2 = { available: true as const, flavour: { ...v1.flavour, version: 2 as const } };
    expect(() => planTestbed({ testbed: 'scaled' }, 'naked-mon', 1, v2, 2, plans)).toThrow(/cgroup v2.*--placement off/);
  });

  it('rides along with the placement options to every runner', () => {
    expect(placementRequest({})).toBeUndefined();
    expect(placementRequest({ testbed: 'scaled' }, ['naked-mon', 'mon-x12'])).toEqual({ mode: undefined, clientCpus: undefined, sutCpus: undefined, testbed: { testbed: 'scaled', planVariants: ['naked-mon', 'mon-x12'] } });
  });
});

describe('quota groups on a fabricated cgroup tree', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'sg-quota-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const v1Tree = () => {
    mkdirSync(join(base, 'cpu'), { recursive: true });
    for (const [f, t] of Object.entries({ 'cpu.cfs_quota_us': '-1', 'cpu.cfs_period_us': '100000', 'cgroup.procs': '' })) writeFileSync(join(base, 'cpu', f), t);
    return new CpuQuotaGroups({ version: 1, mount: join(base, 'cpu'), parent: join(base, 'cpu'), home: join(base, 'cpu') });
  };

  it('detects v1 (cpu or cpu,cpuacct), else a writable v2 with cpu, else says why', () => {
    expect(detectCpuQuota(base, '0::/\n')).toEqual({ available: false, reason: expect.stringMatching(/no cgroup v1 cpu controller/) });
    mkdirSync(join(base, 'cpu,cpuacct'));
    writeFileSync(join(base, 'cpu,cpuacct', 'cpu.cfs_quota_us'), '-1');
    writeFileSync(join(base, 'cpu,cpuacct', 'cgroup.procs'), '');
    expect(detectCpuQuota(base, '0::/\n')).toMatchObject({ available: true, flavour: { version: 1, mount: join(base, 'cpu,cpuacct') } });
    rmSync(join(base, 'cpu,cpuacct'), { recursive: true });
    mkdirSync(join(base, 'unified'));
    writeFileSync(join(base, 'unified', 'cgroup.controllers'), 'cpuset cpu io memory pids');
    writeFileSync(join(base, 'unified', 'cgroup.subtree_control'), '');
    expect(detectCpuQuota(base, '0::/\n')).toMatchObject({ available: true, flavour: { version: 2, mount: join(base, 'unified'), parent: join(base, 'unified') } });
  });

  it('v1: writes the period then the quota of the root (the whole system) and of each container', () => {
    const g = v1Tree();
    const model = scaleModelFor([MON_X12], 1);
    const plan = { testbed: 'scaled' as const, model, cgroup: 1 as const, root: g.pathOf() };
    const q = quotasFor(plan, [{ name: 'sg-monolith-0', pid: 10 }, { name: 'postgres', pid: 11 }, { name: 'jaeger', pid: 12 }]);
    expect(q).toEqual({ root: 14_000, groups: { 'sg-monolith-0': 1000, postgres: 1000 } });
    g.apply(model.periodUs, q.root, q.groups);
    const file = (...p: string[]) => readFileSync(join(base, 'cpu', 'sg-scale', ...p), 'utf8');
    expect([file('cpu.cfs_period_us'), file('cpu.cfs_quota_us'), file('sg-monolith-0', 'cpu.cfs_period_us'), file('sg-monolith-0', 'cpu.cfs_quota_us')]).toEqual(['14000', '14000', '14000', '1000']);
    expect(g.quotaOf('postgres')).toEqual({ quotaUs: 1000, periodUs: 14000 });
    expect(g.pathOf('sg-monolith-0')).toBe('/sg-scale/sg-monolith-0');
  });

  it("moves a container's processes in, but leaves those already in its subtree (a grading's group under the replica's)", () => {
    const g = v1Tree();
    g.apply(14_000, 14_000, { 'sg-monolith-0': 1000 });
    const where: Record<number, string> = { 1: '4:memory:/\n1:cpu:/\n0::/', 2: '1:cpu:/sg-scale/sg-monolith-0/shellgrade-p1/job-1\n', 3: '1:cpu,cpuacct:/sg-scale/sg-monolith-0\n' };
    expect(g.attach('sg-monolith-0', [1, 2, 3, 4], (pid) => where[pid] ?? null)).toEqual([1]);
    expect(g.members('sg-monolith-0')).toEqual([1]);
    expect(cgroupOf('12:cpu,cpuacct:/a\n0::/b', 1)).toBe('/a');
    expect(cgroupOf('12:cpu,cpuacct:/a\n0::/b', 2)).toBe('/b');
  });

  it('reads throttling from cpu.stat (v1 ns, v2 µs) and takes per-run deltas', () => {
    expect(parseThrottling('nr_periods 120\nnr_throttled 30\nthrottled_time 1500000000\nnr_bursts 0\n')).toEqual({ nrPeriods: 120, nrThrottled: 30, throttledS: 1.5 });
    expect(parseThrottling('usage_usec 9\nnr_periods 10\nnr_throttled 4\nthrottled_usec 250000\n')).toEqual({ nrPeriods: 10, nrThrottled: 4, throttledS: 0.25 });
    const g = v1Tree();
    g.apply(14_000, 14_000, { postgres: 1000 });
    writeFileSync(join(base, 'cpu', 'sg-scale', 'postgres', 'cpu.stat'), 'nr_periods 5\nnr_throttled 1\nthrottled_time 1000000\n');
    const before = g.readThrottling();
    writeFileSync(join(base, 'cpu', 'sg-scale', 'postgres', 'cpu.stat'), 'nr_periods 25\nnr_throttled 11\nthrottled_time 301000000\n');
    expect(throttlingDelta(before, g.readThrottling()).postgres).toEqual({ nrPeriods: 20, nrThrottled: 10, throttledS: 0.3 });
  });

  it('undo lifts every quota', () => {
    const g = v1Tree();
    g.apply(14_000, 14_000, { postgres: 1000 });
    g.release();
    // A fabricated tree's folders hold files, so they stay; the kernel's would be removed once empty.
    expect(g.quotaOf('postgres').quotaUs).toBeNull();
    expect(g.quotaOf().quotaUs).toBeNull();
  });

  it('v2: cpu enabled for the children, cpu.max "quota period"', () => {
    mkdirSync(join(base, 'unified'), { recursive: true });
    writeFileSync(join(base, 'unified', 'cgroup.subtree_control'), '');
    const g = new CpuQuotaGroups({ version: 2, mount: join(base, 'unified'), parent: join(base, 'unified'), home: join(base, 'unified') });
    mkdirSync(join(base, 'unified', 'sg-scale'));
    writeFileSync(join(base, 'unified', 'sg-scale', 'cgroup.subtree_control'), '');
    g.apply(10_000, 20_000, { 'sg-gateway-0': 5000 });
    expect(readFileSync(join(base, 'unified', 'cgroup.subtree_control'), 'utf8')).toBe('+cpu');
    expect(readFileSync(join(base, 'unified', 'sg-scale', 'sg-gateway-0', 'cpu.max'), 'utf8')).toBe('5000 10000');
    expect(g.quotaOf('sg-gateway-0')).toEqual({ quotaUs: 5000, periodUs: 10000 });
  });
});
