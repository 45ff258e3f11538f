import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectCgroup, parseCpuUsage, parsePss, parseSchedstat, rootCpuS } from '../src/cgroup-cpu';
import { DEFAULT_POWER_MODEL, estimateEnergy } from '../src/energy';
import { baselinePoints, sandboxed } from '../src/baseline';

describe('cgroup CPU accounting', () => {
  it('detects v1 (cpuacct) or v2 (cpu in cgroup.controllers), and neither', () => {
    const v1 = mkdtempSync(join(tmpdir(), 'cg1-'));
    mkdirSync(join(v1, 'cpuacct'));
    writeFileSync(join(v1, 'cpuacct', 'cpuacct.usage'), '0');
    expect(detectCgroup(v1)).toEqual({ version: 1, root: join(v1, 'cpuacct') });
    const v2 = mkdtempSync(join(tmpdir(), 'cg2-'));
    writeFileSync(join(v2, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    expect(detectCgroup(v2)).toEqual({ version: 2, root: v2 });
    writeFileSync(join(v2, 'cgroup.controllers'), 'memory pids\n');
    expect(detectCgroup(v2)).toBeNull();
  });

  it('reads v1 cpuacct.usage (ns) and v2 cpu.stat usage_usec', () => {
    expect(parseCpuUsage(1, '2500000000\n')).toBe(2.5);
    expect(parseCpuUsage(2, 'usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n')).toBe(1.5);
  });

  it("reads the whole machine from the root cgroup's own counter, and says null where the root has none", () => {
    const v1 = mkdtempSync(join(tmpdir(), 'cg1-'));
    writeFileSync(join(v1, 'cpuacct.usage'), '415230374958\n');
    expect(rootCpuS({ version: 1, root: v1 })).toBeCloseTo(415.230374958, 9);
    const v2 = mkdtempSync(join(tmpdir(), 'cg2-'));
    expect(rootCpuS({ version: 2, root: v2 })).toBeNull(); // older kernels: no cpu.stat at the root
    writeFileSync(join(v2, 'cpu.stat'), 'nr_periods 0\n');
    expect(rootCpuS({ version: 2, root: v2 })).toBeNull();
    writeFileSync(join(v2, 'cpu.stat'), 'usage_usec 2000000\nuser_usec 1500000\n');
    expect(rootCpuS({ version: 2, root: v2 })).toBe(2);
  });

  it('PSS from smaps_rollup, schedstat run and wait', () => {
    expect(parsePss('55d0-7ffc ---p 00000000 00:00 0 [rollup]\nRss:  1612 kB\nPss:  245 kB\nPss_Dirty: 112 kB\n')).toBe(245 * 1024);
    expect(parsePss('Rss: 1 kB\n')).toBeNull();
    expect(parseSchedstat('2000000000 500000000 42\n')).toEqual({ runS: 2, waitS: 0.5, slices: 42 });
  });
});

describe('energy estimate (linear CPU-utilisation model)', () => {
  it('idle power per CPU plus the busy share of the span', () => {
    // 2 CPUs, 60 s, 60 CPU-s busy (one core on average): 2 × 0.74 + 2.76 × 1 = 4.24 W
    const e = estimateEnergy(60, 60, 2, DEFAULT_POWER_MODEL)!;
    expect(e.meanW).toBeCloseTo(4.24);
    expect(e.wh).toBeCloseTo((4.24 * 60) / 3600);
    expect(estimateEnergy(0, 60, 2, { idleWPerCpu: 10, maxWPerCpu: 30, source: 't' })!.meanW).toBe(20);
    expect(estimateEnergy(10, 0, 2)).toBeNull();
  });
});

describe('grader-only baseline', () => {
  it('keeps only the sandboxed rows (same isolation as the variants)', () => {
    const file = { rows: [
      { exec: 'async', isolation: 'bwrap', concurrency: 2, gradingsPerS: 12 },
      { exec: 'async', isolation: 'none', concurrency: 2, gradingsPerS: 40 },
    ] };
    const points = sandboxed(baselinePoints(file));
    expect(points.map((p) => p.gradingsPerS)).toEqual([12]);
  });
});
