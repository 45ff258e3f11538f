import { bisectSustainable, calibrationPlacement, measuredValid, peaksAround, recommend, stepOf } from '../src/calibrate';
import type { CpusetDetection } from '../src/placement/detect';
import { placementRequest } from '../src/placement/options';
import { planPlacement } from '../src/placement/plan';
import { aggregatedFixture } from './support';

const sps = (throughputHold: number, efr: number, p95: number) => ({
  N: 10, OK: 10, KO: 0, accepted: 10, FR: efr, efr_paper: efr, ko_rate: efr, throughput: throughputHold, throughputHold, p50: p95 / 2, p95, p99: p95,
});

describe('calibration steps', () => {
  it('keeps up when SPS all succeed fast enough at the arrival rate', () => {
    const a = aggregatedFixture('mon-x2', 'monolith', { monolith: 2 }, [{ sps: sps(3.9, 0, 700) }]);
    expect(stepOf(4, a)).toMatchObject({ peak: 4, saturated: false, sustained: true, spsP95Ms: 700, phase: 'step' });
  });

  it('is sustained only within the SLO: SPS p95 ≤ 2 s and 0 KO, keeping up', () => {
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0, 2000) }])).sustained).toBe(true);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0, 2800) }])).sustained).toBe(false);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0.01, 500) }])).sustained).toBe(false);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(3, 0, 500) }])).sustained).toBe(false);
  });

  it('saturates on an SPS failure, a lagging throughput or an INVALID run; queueing latency alone is not', () => {
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0.01, 500) }])).saturated).toBe(true);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0, 2800) }])).saturated).toBe(false);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(3, 0, 500) }])).saturated).toBe(true);
    expect(stepOf(4, aggregatedFixture('x', 'msa', {}, [{ sps: sps(4, 0, 500) }, { sps: sps(4, 0, 500) }], { valid: false })).saturated).toBe(true);
  });

  it('recommends the last peak before the first saturated step', () => {
    const step = (peak: number, saturated: boolean) => ({ peak, saturated }) as ReturnType<typeof stepOf>;
    expect(recommend([step(2, false), step(4, false), step(6, true), step(8, false)])).toBe(4);
    expect(recommend([step(2, true)])).toBeNull();
  });
});

describe('calibration placed by the queueing model', () => {
  it('steps densely around the predicted saturation rate, in whole it/s, ascending and distinct', () => {
    // Whole it/s: k6 refuses a fractional arrival-rate target (8.5 stopped a calibration).
    expect(peaksAround(10)).toEqual([5, 7, 9, 10, 12, 13, 15]);
    expect(peaksAround(1)).toEqual([1, 2]);
    expect(peaksAround(6.81, [0.7, 0.85, 1, 1.15, 1.3, 1.5])).toEqual([5, 6, 7, 8, 9, 10]);
  });
});

describe('bisection on the SLO', () => {
  /** A fabricated SLO: sustained up to `capacity` it/s; records every probe. */
  const slo = (capacity: number) => {
    const probes: number[] = [];
    return { probes, sustains: async (rate: number) => (probes.push(rate), rate <= capacity) };
  };

  it('finds the sustainable rate to 1 it/s between the last sustained and the first failed step', async () => {
    const f = slo(13);
    await expect(bisectSustainable(8, 16, f.sustains)).resolves.toEqual({ sustained: 13, failed: 14, probed: [12, 14, 13] });
    expect(f.probes).toEqual([12, 14, 13]);
  });

  it('lands on either bound when the crossing is next to it', async () => {
    await expect(bisectSustainable(8, 16, slo(8).sustains)).resolves.toMatchObject({ sustained: 8, failed: 9 });
    await expect(bisectSustainable(8, 16, slo(15).sustains)).resolves.toMatchObject({ sustained: 15, failed: 16 });
  });

  it('probes nothing when the bounds are already close enough, and searches from 0 when the first step failed', async () => {
    await expect(bisectSustainable(15, 16, slo(100).sustains)).resolves.toEqual({ sustained: 15, failed: 16, probed: [] });
    await expect(bisectSustainable(0, 4, slo(2).sustains)).resolves.toEqual({ sustained: 2, failed: 2.5, probed: [2, 3, 2.5] });
    await expect(bisectSustainable(0, 2, slo(0).sustains)).resolves.toEqual({ sustained: 0, failed: 0.2, probed: [1, 0.5, 0.3, 0.2] });
  });

  it('in the scale model it finds the rate in tenths: steps 0.4, 0.9, 1.3, 1.8 it/s, the last failing', async () => {
    await expect(bisectSustainable(1.3, 1.8, slo(1.5).sustains)).resolves.toEqual({ sustained: 1.5, failed: 1.6, probed: [1.6, 1.5] });
    await expect(bisectSustainable(1.3, 1.8, slo(1.4).sustains)).resolves.toEqual({ sustained: 1.3, failed: 1.5, probed: [1.6, 1.5] });
  });

  it('from 10 it/s every answer is exact to 1 it/s, as before rates had tenths, in at most ⌈log2(width)⌉ probes', async () => {
    for (let capacity = 10; capacity < 32; capacity++) {
      const f = slo(capacity);
      const b = await bisectSustainable(10, 32, f.sustains);
      expect(b).toMatchObject({ sustained: capacity, failed: capacity + 1 });
      expect(f.probes.length).toBeLessThanOrEqual(Math.ceil(Math.log2(32 - 10)));
    }
  });

  it('below, to an eighth of the first failing rate: the bounds it returns bracket the capacity that close', async () => {
    for (let capacity = 0.1; capacity < 8; capacity += 0.1) {
      const b = await bisectSustainable(0, 8, slo(Math.round(capacity * 10) / 10).sustains);
      expect(b.sustained).toBeLessThanOrEqual(capacity + 1e-9);
      expect(b.failed).toBeGreaterThan(capacity);
      expect(b.failed - b.sustained).toBeLessThanOrEqual(1);
    }
  });
});

describe('an INVALID probe is measured again once', () => {
  const attempts = (...valid: boolean[]) => {
    let n = 0;
    return jest.fn(async () => ({ valid: valid[n], attempt: n++ }));
  };

  it('a VALID probe is measured once', async () => {
    const measure = attempts(true);
    expect(await measuredValid(measure)).toEqual({ step: { valid: true, attempt: 0 }, setAside: [] });
    expect(measure).toHaveBeenCalledTimes(1);
  });

  it('an INVALID one (a stray process, a busy client) again, the retake counts and the first is set aside', async () => {
    expect(await measuredValid(attempts(false, true))).toEqual({ step: { valid: true, attempt: 1 }, setAside: [{ valid: false, attempt: 0 }] });
  });

  it('twice INVALID: the second attempt stands (and fails the step), no third', async () => {
    const measure = attempts(false, false, true);
    expect(await measuredValid(measure)).toEqual({ step: { valid: false, attempt: 1 }, setAside: [{ valid: false, attempt: 0 }] });
    expect(measure).toHaveBeenCalledTimes(2);
  });
});

describe('where a calibration puts the client', () => {
  const twoCpus: CpusetDetection = { available: true, flavour: { version: 1, parent: '/cg', home: '/cg', cpus: [0, 1], mems: '0' } };
  // The calibration's runs use the small profile, whose own default is unplaced.
  const planned = (asked: ReturnType<typeof placementRequest>) => planPlacement(calibrationPlacement(asked), { profileName: 'small' }, twoCpus);

  it('places the client apart by default, also when the request names only a testbed (findings --testbed scaled)', () => {
    expect(planned(undefined)).toMatchObject({ state: 'on', clientCpus: [1], sutCpus: [0] });
    const scaled = placementRequest({ testbed: 'scaled' }, ['naked-mon', 'msa-1-4']);
    expect(planned(scaled)).toMatchObject({ state: 'on', clientCpus: [1], sutCpus: [0] });
    expect(calibrationPlacement(scaled).testbed).toEqual({ testbed: 'scaled', planVariants: ['naked-mon', 'msa-1-4'] });
  });

  it('keeps what was asked', () => {
    expect(planned(placementRequest({ placement: 'off' }))).toMatchObject({ state: 'off' });
    expect(planned(placementRequest({ sutCpus: '1' }))).toMatchObject({ state: 'on', clientCpus: [0], sutCpus: [1] });
  });
});
