import { busyCores, busyReason, parseCpuStat, waitForQuiet, type CpuJiffies } from '../src/quiet';
import { judgeRun } from '../src/validity';

const STAT = `cpu  300 0 100 900 10 0 0 0 0 0
cpu0 200 0 50 400 5 0 0 0 0 0
cpu1 100 0 50 500 5 0 0 0 0 0
intr 12345
`;

/** Readings a second apart with CPU 0 busy `busy[i]` of each 100 jiffies and CPU 1 always idle. */
function readings(busy: number[]): () => CpuJiffies[] {
  let i = 0;
  let b0 = 0;
  return () => {
    const t = i * 100;
    if (i > 0) b0 += busy[Math.min(i - 1, busy.length - 1)];
    i++;
    return [
      { cpu: 0, busy: b0, total: t },
      { cpu: 1, busy: 0, total: t },
    ];
  };
}

describe('an idle system before the load', () => {
  it('reads per-CPU busy and total jiffies from /proc/stat (idle and iowait are not busy)', () => {
    expect(parseCpuStat(STAT)).toEqual([
      { cpu: 0, busy: 250, total: 655 },
      { cpu: 1, busy: 150, total: 655 },
    ]);
  });

  it('counts cores in use over the watched CPUs only', () => {
    const before = [{ cpu: 0, busy: 0, total: 0 }, { cpu: 1, busy: 0, total: 0 }];
    const after = [{ cpu: 0, busy: 90, total: 100 }, { cpu: 1, busy: 50, total: 100 }];
    expect(busyCores(before, after, [0])).toBeCloseTo(0.9, 9);
    expect(busyCores(before, after, null)).toBeCloseTo(1.4, 9);
  });

  it('waits while a backlog keeps the system busy, and goes on after 3 quiet seconds', async () => {
    const q = await waitForQuiet([0], { thresholdCores: 0.15, quietS: 3, timeoutS: 60 }, readings([95, 90, 60, 5, 20, 5, 5, 5]), 0);
    // Busy 3 s, quiet 1 s, busy again, then 3 quiet seconds: 8 readings.
    expect(q).toEqual({ quiet: true, waitedS: 8, lastCores: 0.05, cpus: [0] });
  });

  it('a system that never goes quiet makes the run INVALID, with the figures', async () => {
    const q = await waitForQuiet([0], { thresholdCores: 0.15, quietS: 3, timeoutS: 5 }, readings([100]), 0);
    expect(q).toEqual({ quiet: false, waitedS: 5, lastCores: 1, cpus: [0] });
    const resources = { k6HoldSamples: 10, k6SaturatedSamples: 0, k6CpuMaxPct: 10, k6SchedDelayMs: 0, samples: 10, cpuResidualShare: 0, cpuResidualCores: 0, client: undefined };
    const v = judgeRun({ droppedIterations: 0, k6ExitCode: 0, clientErrors: 0, resources, quiet: q });
    expect(v.valid).toBe(false);
    expect(v.reasons).toEqual([busyReason(q)]);
    expect(v.reasons[0]).toBe('the system under test was still busy before the load (1.00 cores on CPU 0 after 5 s; idle means below 0.15 for 3 s): work left by an earlier run would be measured as this one\'s');
    expect(judgeRun({ droppedIterations: 0, k6ExitCode: 0, clientErrors: 0, resources, quiet: { ...q, quiet: true } }).valid).toBe(true);
  });
});
