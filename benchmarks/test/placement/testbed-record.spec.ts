// What calibration files keep of the testbed, and why: a capacity measured under the scale
// model's quotas (a scaled run calibrates naked-mon first) is the model's, and an unscaled study
// that read it would put every load level at the model's rate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredCapacity } from '../../src/findings/loads';
import { sutCpuCount, testbedSummary, type TestbedRecord } from '../../src/placement/testbed';
import { scaleModelFor } from '../../src/placement/scale-model';

const model = scaleModelFor([{ variant: 'msa-1-1', containers: ['sg-gateway-0', 'sg-leftover-0', 'sg-exercise-0', 'postgres'] }], 2);

describe('testbedSummary: the testbed as a calibration file keeps it', () => {
  it('unscaled, or a record without one (every run before the scale model)', () => {
    expect(testbedSummary(undefined)).toEqual({ testbed: 'unscaled' });
    expect(testbedSummary({ testbed: 'unscaled' })).toEqual({ testbed: 'unscaled' });
  });

  it('scaled: s, the cgroup version, the whole system\'s quota and each group\'s as written', () => {
    const quotas = { '*': { quotaUs: model.sutQuotaUs, periodUs: model.periodUs }, 'sg-monolith-0': { quotaUs: model.quotaUs, periodUs: model.periodUs } };
    const record: TestbedRecord = { testbed: 'scaled', model, cgroup: 1, root: '/sg-scale', quotas };
    expect(testbedSummary(record)).toEqual({ testbed: 'scaled', s: model.s, cgroup: 1, quotas, sutQuotaUs: model.sutQuotaUs, periodUs: model.periodUs });
  });
});

describe("measuredCapacity reads the machine's capacity, never the scale model's", () => {
  it('a newer calibration made under quotas is passed over for the unscaled one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-capacity-testbed-'));
    const common = { placement: { state: 'on', clientCpus: [1], sutCpus: [0] }, bootId: 'boot-1' };
    try {
      writeFileSync(join(dir, '20261201T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 8, testbed: { testbed: 'unscaled' }, ...common }));
      writeFileSync(join(dir, '20261202T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 3, testbed: testbedSummary({ testbed: 'scaled', model, cgroup: 1, root: '/sg-scale', quotas: {} }), ...common }));
      expect(measuredCapacity(dir, { bootId: 'boot-1' })).toEqual({ rate: 8, source: '20261201T100000Z-naked-mon-calibration.json' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sutCpuCount: the CPUs a scale model divides', () => {
  it("counts the system under test's cpuset when placed, the machine's CPUs otherwise", () => {
    expect(sutCpuCount({ state: 'on', sutCpus: [0] })).toBe(1);
    expect(sutCpuCount({ state: 'on', sutCpus: [0, 2, 3] })).toBe(3);
    expect(sutCpuCount({ state: 'off', sutCpus: [] })).toBe(availableParallelism());
    expect(sutCpuCount({ state: 'unavailable', sutCpus: [0] })).toBe(availableParallelism());
  });
});
