import { judgeRun } from '../src/validity';
import { summarizeResources } from '../src/resource-summary';
import { descendantsOf, type ResourceSample } from '../src/resource-sampler';

const calm = { k6HoldSamples: 40, k6SaturatedSamples: 0, k6CpuMaxPct: 30, k6SchedDelayMs: 0.5, samples: 60, cpuResidualShare: 0.06, cpuResidualCores: 0.05 };
const base = { droppedIterations: 0, k6ExitCode: 0, clientErrors: 0 };

describe('judgeRun (INVALID detection)', () => {
  it('accepts a run where k6 kept up', () => {
    expect(judgeRun({ ...base, resources: calm })).toEqual({ valid: true, reasons: [] });
  });

  it('accepts crossed thresholds (exit 99): they are a measurement', () => {
    expect(judgeRun({ ...base, k6ExitCode: 99, resources: calm }).valid).toBe(true);
  });

  it('rejects dropped iterations and client-side errors', () => {
    expect(judgeRun({ ...base, droppedIterations: 4, resources: calm }).reasons[0]).toMatch(/dropped 4 iterations/);
    expect(judgeRun({ ...base, clientErrors: 2, resources: calm }).reasons[0]).toMatch(/2 client-side errors/);
  });

  it('rejects a sustained k6 CPU saturation in the hold stage, counted over k6\'s own hold samples', () => {
    // 4 of 40 hold samples = 10%: not past the 10% share.
    expect(judgeRun({ ...base, resources: { ...calm, k6SaturatedSamples: 4, k6CpuMaxPct: 99 } }).valid).toBe(true);
    // 5 of 40 = 12.5%, even though the run has 60 samples in all (5/60 = 8% would pass: the old denominator).
    const v = judgeRun({ ...base, resources: { ...calm, k6SaturatedSamples: 5, k6CpuMaxPct: 99 } });
    expect(v.valid).toBe(false);
    expect(v.reasons[0]).toMatch(/k6 CPU above 90% of a core in 5\/40 hold-stage samples \(13%/);
  });

  it('needs several saturated samples: one busy second of a short run is a spike', () => {
    expect(judgeRun({ ...base, resources: { ...calm, k6HoldSamples: 6, k6SaturatedSamples: 1, k6CpuMaxPct: 109 } }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: { ...calm, k6HoldSamples: 6, k6SaturatedSamples: 3, k6CpuMaxPct: 109 } }).valid).toBe(false);
  });

  it('rejects a CPU-starved k6 (waiting for a CPU more than 10 ms each time it had work)', () => {
    expect(judgeRun({ ...base, resources: { ...calm, k6SchedDelayMs: 12.5 } }).reasons[0]).toMatch(/k6 starved of CPU: .* waited 12\.5 ms/);
    expect(judgeRun({ ...base, resources: { ...calm, k6SchedDelayMs: 9.9 } }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: { ...calm, k6SchedDelayMs: null } }).valid).toBe(true);
  });

  it('rejects a run where something besides the variant and k6 kept more than 0.15 cores busy', () => {
    // naked-mon run 1 of the issue-13 matrix: a build ran beside it, SPS p50 5.96 s instead of 0.56-1.09 s
    expect(judgeRun({ ...base, resources: { ...calm, cpuResidualShare: 0.461, cpuResidualCores: 0.525 } }).reasons[0]).toBe(
      "foreign CPU load: 0.53 cores on average used by no process of the variant nor k6, 46% of the machine's busy CPU minus k6 (limit 0.15 cores)",
    );
    // a smoke run's residual is a large share of a small total, but a quiet rate: valid
    expect(judgeRun({ ...base, resources: { ...calm, cpuResidualShare: 0.24, cpuResidualCores: 0.06 } }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: { ...calm, cpuResidualCores: 0.149 } }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: { ...calm, cpuResidualCores: null } }).valid).toBe(true);
  });

  it('rejects a variant switched by someone else and an unbalanced audit; a crash alone is no reason', () => {
    expect(judgeRun({ ...base, resources: calm, variantSwitched: true }).reasons[0]).toMatch(/switched by another launcher user/);
    expect(judgeRun({ ...base, resources: calm, audit: { balanced: false, summary: 'lost 1 / duplicated 0 (accepted 9)' } }).reasons[0]).toBe('zero-loss audit: lost 1 / duplicated 0 (accepted 9)');
    expect(judgeRun({ ...base, resources: calm, audit: { balanced: true, summary: 'balanced' } }).valid).toBe(true);
  });

  it('rejects a k6 crash and a run without samples', () => {
    expect(judgeRun({ ...base, k6ExitCode: 107, resources: calm }).reasons).toEqual(['k6 exited with code 107']);
    expect(judgeRun({ ...base, resources: { ...calm, samples: 0 } }).valid).toBe(false);
  });
});

function sample(tS: number, group: string, cpuPct: number, cpuS: number, mb: number, extra: Partial<ResourceSample> = {}): ResourceSample {
  return { run: 1, tS, epochMs: 1_000_000 + tS * 1000, group, role: ({ k6: 'load', machine: 'machine', harness: 'harness' } as Record<string, string>)[group] ?? 'service', pids: 1, cpuPct, cpuS, rssBytes: 2 * mb * 2 ** 20, pssBytes: mb * 2 ** 20, cpuSource: 'cgroup', ...extra };
}

describe('summarizeResources', () => {
  const samples = [
    sample(0, 'sg-monolith-0', 0, 10, 100),
    sample(0, 'postgres', 0, 5, 50),
    sample(0, 'k6', 0, 0, 80, { waitS: 0, runS: 0, slices: 0 }),
    sample(1, 'sg-monolith-0', 150, 11.5, 120),
    sample(1, 'postgres', 20, 5.2, 60),
    sample(1, 'k6', 95, 0.95, 80, { waitS: 0.1, runS: 0.9, slices: 100 }),
    sample(2, 'sg-monolith-0', 150, 13, 140),
    sample(2, 'postgres', 20, 5.4, 70),
    sample(2, 'k6', 40, 1.35, 80, { waitS: 0.5, runS: 1.3, slices: 300 }),
    sample(0, 'machine', 0, 1000, 9000),
    sample(2, 'machine', 180, 1010, 9000),
    sample(0, 'harness', 0, 3, 60),
    sample(2, 'harness', 10, 3.2, 60),
  ];

  it('sums CPU seconds per group and in all, the client (k6 + harness) apart, and the residual against machine CPU minus the client', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    expect(r.cpuSByGroup['sg-monolith-0']).toBeCloseTo(3);
    expect(r.cpuSByGroup.postgres).toBeCloseTo(0.4);
    expect(r.variantCpuS).toBeCloseTo(3.4);
    expect(r.k6CpuS).toBeCloseTo(1.35);
    expect(r.harnessCpuS).toBeCloseTo(0.2);
    expect(r.machineCpuSButClient).toBeCloseTo(10 - 1.35 - 0.2);
    expect(r.cpuResidualShare).toBeCloseTo((8.45 - 3.4) / 8.45);
    // the same residual as a rate: 5.05 CPU-s over the machine's 2 s of samples
    expect(r.cpuResidualCores).toBeCloseTo(5.05 / 2);
    expect(r.cpuSource).toBe('cgroup');
  });

  it('computes memory from PSS as the paper does: (mean − min) / machine memory; RSS kept apart', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    // PSS per tick: 150, 180, 210 MiB -> mean 180, min 150
    expect(r.variantPssMeanBytes).toBe(180 * 2 ** 20);
    expect(r.variantMemShare).toBeCloseTo(30 / 1024);
    expect(r.variantPssMaxBytes).toBe(210 * 2 ** 20);
    expect(r.variantRssMeanBytes).toBe(360 * 2 ** 20);
  });

  it('judges k6 on the hold stage only: ramp samples and VU initialisation are left out', () => {
    const holdFrom2 = summarizeResources(samples, 1024 * 2 ** 20, 90, { loadFromMs: 0, holdFromMs: 1_000_000 + 2000, holdToMs: Infinity });
    expect(holdFrom2.k6HoldSamples).toBe(1);
    expect(holdFrom2.k6SaturatedSamples).toBe(0);
    const all = summarizeResources(samples, 1024 * 2 ** 20);
    expect(all.k6HoldSamples).toBe(2);
    expect(all.k6SaturatedSamples).toBe(1);
    expect(all.k6CpuMaxPct).toBe(95);
  });

  it('k6 starvation: mean wait for a CPU per time slice over the hold stage', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    // from tick 1 to 2: waited 0.4 s over 200 slices = 2 ms each; half its runnable time
    expect(r.k6SchedDelayMs).toBeCloseTo(2);
    expect(r.k6WaitShare).toBeCloseTo(0.5);
  });
});

describe('descendantsOf', () => {
  it('walks the process table from a root through every generation', () => {
    const table = [
      { ppid: 1, pid: 10 },
      { ppid: 10, pid: 11 },
      { ppid: 11, pid: 12 },
      { ppid: 1, pid: 20 },
      { ppid: 10, pid: 13 },
    ];
    expect(descendantsOf(10, table).sort()).toEqual([10, 11, 12, 13]);
    expect(descendantsOf(99, table)).toEqual([99]);
  });
});
