// Validity with placement on (fabricated inputs): the client over 70 % of its cpuset (on average,
// or in more than 10 % of its hold-stage samples), a process of the system under test allowed on
// a client CPU, and dropped iterations (coordinated omission) make a run INVALID with the reason;
// placement off or unavailable judges as before. The client's share is k6 + harness per tick.
import { clientCpu, summarizeResources } from '../../src/resource-summary';
import type { ResourceSample } from '../../src/resource-sampler';
import { judgeRun, type PlacementCheck } from '../../src/validity';

const client = (meanShare: number, overSamples = 0, holdSamples = 40, maxShare = meanShare) => ({ cores: 1, limitShare: 0.7, holdSamples, overSamples, meanShare, maxShare });
const calm = { k6HoldSamples: 40, k6SaturatedSamples: 0, k6CpuMaxPct: 30, k6SchedDelayMs: 0.5, samples: 60, cpuResidualShare: 0.06, cpuResidualCores: 0.05, client: client(0.3) };
const base = { droppedIterations: 0, k6ExitCode: 0, clientErrors: 0 };
const on: PlacementCheck = { state: 'on', clientCpus: '1', trespassers: [] };

describe('judgeRun with placement', () => {
  it('accepts a client well within its cpuset', () => {
    expect(judgeRun({ ...base, resources: calm, placement: on })).toEqual({ valid: true, reasons: [] });
  });

  it('rejects a client averaging more than 70 % of its cpuset', () => {
    const v = judgeRun({ ...base, resources: { ...calm, client: client(0.71, 30) }, placement: on });
    expect(v).toEqual({ valid: false, reasons: ['client CPU (k6 + harness) averaged 71% of its cpuset (CPU 1) in the hold stage (limit 70%)'] });
    expect(judgeRun({ ...base, resources: { ...calm, client: client(0.7) }, placement: on }).valid).toBe(true);
  });

  it('rejects a client above 70 % in more than 10 % of its hold samples (at least 3) even when its mean is below', () => {
    expect(judgeRun({ ...base, resources: { ...calm, client: client(0.5, 5, 40, 0.98) }, placement: on }).reasons).toEqual(['client CPU (k6 + harness) above 70% of its cpuset (CPU 1) in 5/40 hold-stage samples (max 98%)']);
    expect(judgeRun({ ...base, resources: { ...calm, client: client(0.5, 4, 40, 0.98) }, placement: on }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: { ...calm, client: client(0.5, 2, 6, 0.98) }, placement: on }).valid).toBe(true);
  });

  it('rejects a run whose client CPU was never sampled in the hold stage: unknown is not below the limit', () => {
    expect(judgeRun({ ...base, resources: { ...calm, client: undefined }, placement: on }).reasons[0]).toMatch(/no client CPU sample in the hold stage/);
  });

  it('rejects a run where a process of the system under test could run on a client CPU', () => {
    const v = judgeRun({ ...base, resources: calm, placement: { ...on, trespassers: [{ pid: 4242, cpus: [0, 1] }] } });
    expect(v.reasons).toEqual(["placement broken: 1 process(es) of the system under test may run on the client's CPU 1 (4242 on CPU 0,1)"]);
  });

  it('rejects any dropped iteration, naming coordinated omission', () => {
    const v = judgeRun({ ...base, droppedIterations: 1, resources: calm, placement: on });
    expect(v.valid).toBe(false);
    expect(v.reasons[0]).toMatch(/^k6 dropped 1 iterations .*coordinated omission/);
  });

  it('judges the client share only with placement on (off or unavailable: the rules of before)', () => {
    const busy = { ...calm, client: client(0.95, 40) };
    expect(judgeRun({ ...base, resources: busy }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: busy, placement: { ...on, state: 'off' } }).valid).toBe(true);
    expect(judgeRun({ ...base, resources: busy, placement: { ...on, state: 'unavailable' } }).valid).toBe(true);
  });
});

function s(tS: number, group: string, cpuPct: number): ResourceSample {
  const role = ({ k6: 'load', harness: 'harness', machine: 'machine' } as Record<string, string>)[group] ?? 'service';
  return { run: 1, tS, epochMs: 1_000_000 + tS * 1000, group, role, pids: 1, cpuPct, cpuS: tS, rssBytes: 1, pssBytes: 1, cpuSource: 'proc' };
}

describe("the client's share of its cpuset", () => {
  // k6's first sample has no interval; t=1 is ramp; hold from t=2. Harness adds its own CPU per tick.
  const samples = [s(0, 'k6', 0), s(0, 'harness', 5), s(1, 'k6', 90), s(1, 'harness', 5), s(2, 'k6', 60), s(2, 'harness', 15), s(3, 'k6', 40), s(3, 'harness', 5), s(4, 'k6', 140), s(4, 'harness', 10), s(2, 'sg-monolith-0', 100)];
  const window = { loadFromMs: 0, holdFromMs: 1_002_000, holdToMs: Infinity };

  it('sums k6 and the harness per hold-stage tick over the cpuset size', () => {
    const c = clientCpu(samples, window, 2, 0.7);
    expect(c.holdSamples).toBe(3);
    expect(c.meanShare).toBeCloseTo((0.375 + 0.225 + 0.75) / 3, 6);
    expect(c.maxShare).toBeCloseTo(0.75, 6);
    expect(c.overSamples).toBe(1);
    expect(clientCpu(samples, window, 1, 0.7)).toMatchObject({ overSamples: 2, maxShare: 1.5 });
  });

  it('is in the summary only with placement', () => {
    expect(summarizeResources(samples, 1, 90, window).client).toBeUndefined();
    expect(summarizeResources(samples, 1, 90, window, { cores: 1, limitShare: 0.7 }).client).toMatchObject({ cores: 1, holdSamples: 3 });
  });
});
