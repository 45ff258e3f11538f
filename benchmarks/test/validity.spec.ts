import { judgeRun } from '../src/validity';
import { summarizeResources } from '../src/resource-summary';
import { descendantsOf, type ResourceSample } from '../src/resource-sampler';

const calm = { k6SaturatedShare: 0, k6CpuMaxPct: 30, samples: 60 };

describe('judgeRun (INVALID detection)', () => {
  it('accepts a run where k6 kept up', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: calm })).toEqual({ valid: true, reasons: [] });
  });

  it('accepts crossed thresholds (exit 99): they are a measurement', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 99, resources: calm }).valid).toBe(true);
  });

  it('rejects dropped iterations', () => {
    const v = judgeRun({ droppedIterations: 4, k6ExitCode: 0, resources: calm });
    expect(v.valid).toBe(false);
    expect(v.reasons[0]).toMatch(/dropped 4 iterations/);
  });

  it('rejects a sustained k6 CPU saturation, not a short spike', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: { k6SaturatedShare: 0.05, k6CpuMaxPct: 99, samples: 60 } }).valid).toBe(true);
    const v = judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: { k6SaturatedShare: 0.4, k6CpuMaxPct: 99, samples: 60 } });
    expect(v.valid).toBe(false);
    expect(v.reasons[0]).toMatch(/k6 CPU above 90% .* in 40% of samples/);
  });

  it('needs several saturated samples: one busy second of a 6-sample smoke run is a spike', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: { k6SaturatedShare: 1 / 6, k6CpuMaxPct: 109, samples: 6 } }).valid).toBe(true);
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: { k6SaturatedShare: 3 / 6, k6CpuMaxPct: 109, samples: 6 } }).valid).toBe(false);
  });

  it('rejects a run during which the variant changed', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: calm, variantChanged: true }).reasons[0]).toMatch(/switched or a process restarted/);
  });

  it('rejects a k6 crash and a run without samples', () => {
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 107, resources: calm }).reasons).toEqual(['k6 exited with code 107']);
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, resources: { ...calm, samples: 0 } }).valid).toBe(false);
  });
});

function sample(tS: number, group: string, cpuPct: number, cpuS: number, rssMb: number): ResourceSample {
  return { run: 1, tS, epochMs: 1_000_000 + tS * 1000, group, role: group === 'k6' ? 'load' : 'service', pids: 1, cpuPct, cpuS, rssBytes: rssMb * 2 ** 20 };
}

describe('summarizeResources', () => {
  const samples = [
    sample(0, 'sg-monolith-0', 0, 10, 100),
    sample(0, 'postgres', 0, 5, 50),
    sample(0, 'k6', 0, 0, 80),
    sample(1, 'sg-monolith-0', 150, 11.5, 120),
    sample(1, 'postgres', 20, 5.2, 60),
    sample(1, 'k6', 95, 0.95, 80),
    sample(2, 'sg-monolith-0', 150, 13, 140),
    sample(2, 'postgres', 20, 5.4, 70),
    sample(2, 'k6', 40, 1.35, 80),
    sample(0, 'machine', 0, 1000, 9000),
    sample(2, 'machine', 180, 1010, 9000),
  ];

  it('sums CPU seconds of the system under test from first to last sample, k6 apart', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    expect(r.variantCpuS).toBeCloseTo(3 + 0.4);
    expect(r.k6CpuS).toBeCloseTo(1.35);
    expect(r.machineCpuSButK6).toBeCloseTo(10 - 1.35);
  });

  it('computes memory as the paper does: (mean - min) / machine memory', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    // per tick: 150, 180, 210 MiB -> mean 180, min 150
    expect(r.variantRssMeanBytes).toBe(180 * 2 ** 20);
    expect(r.variantMemShare).toBeCloseTo(30 / 1024);
    expect(r.variantRssMaxBytes).toBe(210 * 2 ** 20);
  });

  it('leaves k6 VU initialisation (before its load started) out of the saturation share', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20, 90, 1_000_000 + 2000);
    expect(r.k6SaturatedShare).toBe(0);
    expect(r.k6CpuMaxPct).toBe(40);
  });

  it('measures k6 saturation on the samples that have an interval', () => {
    const r = summarizeResources(samples, 1024 * 2 ** 20);
    expect(r.k6CpuMaxPct).toBe(95);
    expect(r.k6SaturatedShare).toBe(0.5);
    expect(r.samples).toBe(3);
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
