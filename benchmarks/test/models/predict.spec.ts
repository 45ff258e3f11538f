// Prediction (bounds + solver) and the comparison with a measurement.
import { compare, relError } from '../../src/models/compare';
import type { Measured } from '../../src/models/measured';
import type { QueueingNetwork } from '../../src/models/network';
import { predict } from '../../src/models/predict';
import type { SolverInput, SolverOutput } from '../../src/models/solver';

jest.setTimeout(60_000);

// One M/M/1 station per class plus a shared one: every answer in closed form.
const net: QueueingNetwork = {
  variant: 'textbook',
  cores: 2,
  outsideDemands: { session: 0.04, sps: 0.01 },
  unmeasured: [],
  stations: [
    { name: 'front', servers: 1, demands: { session: 0.1, sps: 0.1 } },
    { name: 'grader', servers: 1, demands: { session: 0, sps: 0.25 } },
  ],
};

describe('model prediction', () => {
  it('below saturation: LINE gives the M/M/1 response times, summed per class over its stations', () => {
    const p = predict(net, 'hand', 2);
    // front: U = 2·0.2 = 0.4; grader: U = 0.5.
    expect(p.saturated).toBe(false);
    expect(p.responseTimeS.session).toBeCloseTo(0.1 / 0.6, 6);
    expect(p.responseTimeS.sps).toBeCloseTo(0.1 / 0.6 + 0.25 / 0.5, 6);
    expect(p.stations.map((s) => [s.name, Number(s.utilization.toFixed(6))])).toEqual([
      ['front', 0.4],
      ['grader', 0.5],
    ]);
    expect(p.cpu.utilization).toBeCloseTo((2 * 0.5) / 2, 9);
    expect(p.bottleneck).toBe('grader');
    expect(p.saturationRate).toBeCloseTo(4, 9);
    expect(p.throughput).toEqual({ iterationsPerS: 2, requestsPerS: 20, spsPerS: 2 });
  });

  it('past saturation: throughput is the bottleneck rate, no response time, and no solver call', () => {
    const solve = jest.fn<SolverOutput, [SolverInput]>();
    const p = predict(net, 'hand', 5, solve);
    expect(solve).not.toHaveBeenCalled();
    expect(p.saturated).toBe(true);
    expect(p.throughput.iterationsPerS).toBeCloseTo(4, 9);
    expect(p.responseTimeS).toEqual({ session: null, sps: null });
    expect(p.stations.find((s) => s.name === 'grader')!.utilization).toBeCloseTo(1, 9);
  });

  describe('shared CPU (two-level model, real LINE)', () => {
    // One class through single-server stations on `cores` cores, nothing outside them.
    const chain = (cores: number, ...demands: number[]): QueueingNetwork => ({
      variant: 'textbook',
      cores,
      outsideDemands: { session: 0, sps: 0 },
      unmeasured: [],
      stations: demands.map((d, i) => ({ name: `s${i}`, servers: 1, demands: { session: d, sps: 0 } })),
    });

    it('one event loop alone on one core is an M/M/1: R = D / (1 − λD), saturation at 1 / D (it never waits for itself)', () => {
      const p = predict(chain(1, 0.1), 'hand', 2, undefined, 'shared');
      expect(p.responseTimeS.session).toBeCloseTo(0.1 / 0.8, 5);
      expect(p.saturationRate).toBeCloseTo(10, 4);
      expect(p.cpu.stretch).toEqual({ s0: expect.closeTo(1, 5) });
    });

    it("two event loops on one core stretch each other: S' = D / (1 − λD_other), R = S' / (1 − λS'), saturation where the core is full", () => {
      // λ = 2, D = 0.1 each: the other loop keeps the core 20 % busy → S' = 0.125, U = 0.25, R = 1/6 per station.
      const p = predict(chain(1, 0.1, 0.1), 'hand', 2, undefined, 'shared');
      expect(p.responseTimeS.session).toBeCloseTo(2 * (0.125 / 0.75), 5);
      expect(p.saturationRate).toBeCloseTo(5, 4);
      // The bound model sees no contention: each station alone, R = 0.1 / 0.8.
      expect(predict(chain(1, 0.1, 0.1), 'hand', 2).responseTimeS.session).toBeCloseTo(2 * 0.125, 5);
    });

    it('contention only lengthens: never a faster answer or a later saturation than the stations alone', () => {
      const shared = predict(net, 'hand', 2, undefined, 'shared');
      const bound = predict(net, 'hand', 2);
      expect(shared.responseTimeS.sps!).toBeGreaterThan(bound.responseTimeS.sps!);
      expect(shared.saturationRate).toBeLessThan(bound.saturationRate);
      const past = predict(net, 'hand', shared.saturationRate * 1.01, undefined, 'shared');
      expect(past.saturated).toBe(true);
      expect(past.responseTimeS).toEqual({ session: null, sps: null });
      expect(past.throughput.iterationsPerS).toBeCloseTo(shared.saturationRate, 9);
    });
  });

  it('compare: relative error of each figure, n/a where a side is missing', () => {
    expect(relError(1.1, 1)).toBeCloseTo(0.1, 12);
    expect(relError(null, 1)).toBeNull();
    expect(relError(1, 0)).toBeNull();
    const fake = (): SolverOutput => ({
      solver: 'fake',
      stations: { front: { session: { util: 0.2, respT: 0.2, qLen: 0, tput: 2 }, sps: { util: 0.2, respT: 0.2, qLen: 0, tput: 2 } }, grader: { sps: { util: 0.5, respT: 0.5, qLen: 0, tput: 2 } } },
    });
    const atPeak = predict(net, 'hand', 5, fake);
    const atMean = predict(net, 'hand', 2, fake);
    const measured: Measured = {
      runs: 1,
      spsPerS: 3.2,
      requestsPerS: 32,
      responseTimeS: { session: 0.5, sps: 3 },
      meanArrivalRate: 2,
      cpuCoresByStation: { front: 0.5, grader: 0.5, cpu: 1.2 },
    };
    const c = compare('run', atPeak, atMean, measured);
    const by = Object.fromEntries(c.rows.map((r) => [r.metric, r]));
    expect(by['throughput sps/s (hold)'].relError).toBeCloseTo((4 - 3.2) / 3.2, 9);
    expect(by['response time sps s (hold, per iteration)'].relError).toBeNull();
    expect(by['cpu cores front (run mean)'].relError).toBeCloseTo((0.4 - 0.5) / 0.5, 9);
    expect(by['cpu cores machine (run mean)'].predicted).toBeCloseTo(1, 9);
    expect(c.bottleneck).toBe('grader');
  });
});
