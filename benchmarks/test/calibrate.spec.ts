import { peaksAround, recommend, stepOf } from '../src/calibrate';
import { aggregatedFixture } from './support';

const sps = (throughputHold: number, efr: number, p95: number) => ({
  N: 10, OK: 10, KO: 0, accepted: 10, FR: efr, efr_paper: efr, ko_rate: efr, throughput: throughputHold, throughputHold, p50: p95 / 2, p95, p99: p95,
});

describe('calibration steps', () => {
  it('keeps up when SPS all succeed fast enough at the arrival rate', () => {
    const a = aggregatedFixture('mon-x2', 'monolith', { monolith: 2 }, [{ sps: sps(3.9, 0, 700) }]);
    expect(stepOf(4, a)).toMatchObject({ peak: 4, saturated: false, spsP95Ms: 700 });
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
