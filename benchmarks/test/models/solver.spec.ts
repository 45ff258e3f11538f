// LINE (PyPI line-solver, through benchmarks/models/qn_solve.py) on textbook networks whose
// answers are known in closed form or by a hand-run MVA.
import { solveNetwork } from '../../src/models/solver';

jest.setTimeout(60_000);

/** Exact MVA for one closed class (Lazowska et al., Quantitative System Performance, ch. 6): the cross-check. */
function handMva(demands: number[], thinkTime: number, population: number): { x: number; r: number[] } {
  let q = demands.map(() => 0);
  let x = 0;
  let r = demands.map(() => 0);
  for (let n = 1; n <= population; n++) {
    r = demands.map((d, k) => d * (1 + q[k]));
    x = n / (thinkTime + r.reduce((s, v) => s + v, 0));
    q = r.map((rk) => x * rk);
  }
  return { x, r };
}

describe('queueing solver (LINE MVA)', () => {
  it('solves an open M/M/1 queue: U = λS, R = S / (1 − U), Q = U / (1 − U)', () => {
    const out = solveNetwork({ name: 'mm1', classes: [{ name: 'a', arrivalRate: 4 }], stations: [{ name: 'q', servers: 1, demands: { a: 0.2 } }] });
    const q = out.stations.q.a;
    expect(q.util).toBeCloseTo(0.8, 6);
    expect(q.respT).toBeCloseTo(0.2 / (1 - 0.8), 6);
    expect(q.qLen).toBeCloseTo(0.8 / (1 - 0.8), 6);
    expect(q.tput).toBeCloseTo(4, 6);
  });

  it('solves an open M/M/2 queue: R = S / (1 − ρ²) with ρ = λS / 2', () => {
    const out = solveNetwork({ name: 'mm2', classes: [{ name: 'a', arrivalRate: 6 }], stations: [{ name: 'q', servers: 2, demands: { a: 0.25 } }] });
    const rho = (6 * 0.25) / 2;
    expect(out.stations.q.a.util).toBeCloseTo(rho, 6);
    expect(out.stations.q.a.respT).toBeCloseTo(0.25 / (1 - rho * rho), 6);
  });

  it('routes each class only through the stations it has a demand at (two open classes, M/M/1 each)', () => {
    const out = solveNetwork({
      name: 'two-classes',
      classes: [
        { name: 'a', arrivalRate: 1 },
        { name: 'b', arrivalRate: 2 },
      ],
      stations: [
        { name: 'qa', servers: 1, demands: { a: 0.5 } },
        { name: 'shared', servers: 1, demands: { a: 0.1, b: 0.2 } },
      ],
    });
    expect(out.stations.qa.b).toBeUndefined();
    expect(out.stations.qa.a.respT).toBeCloseTo(0.5 / (1 - 0.5), 6);
    // Multi-class PS: every class sees the total utilisation U = 1·0.1 + 2·0.2 = 0.5.
    expect(out.stations.shared.a.respT).toBeCloseTo(0.1 / (1 - 0.5), 6);
    expect(out.stations.shared.b.respT).toBeCloseTo(0.2 / (1 - 0.5), 6);
  });

  it('solves a two-station closed network as a hand-run exact MVA does (N = 3, Z = 1 s, D = 0.2 s, 0.4 s)', () => {
    // By hand: n=1 X=0.625; n=2 R=(0.225, 0.5) X=1.15942; n=3 R=(0.252174, 0.631884) X=1.592308.
    const out = solveNetwork({
      name: 'closed',
      classes: [{ name: 'c', population: 3, thinkTime: 1 }],
      stations: [
        { name: 'q1', servers: 1, demands: { c: 0.2 } },
        { name: 'q2', servers: 1, demands: { c: 0.4 } },
      ],
    });
    const hand = handMva([0.2, 0.4], 1, 3);
    expect(hand.x).toBeCloseTo(1.592308, 5);
    expect(out.stations.q1.c.tput).toBeCloseTo(hand.x, 5);
    expect(out.stations.q1.c.respT).toBeCloseTo(hand.r[0], 5);
    expect(out.stations.q2.c.respT).toBeCloseTo(hand.r[1], 5);
    expect(out.stations.q2.c.util).toBeCloseTo(hand.x * 0.4, 5);
  });

  it('fails loudly when the solver cannot run', () => {
    const saved = process.env.SG_TOOLS_PYTHON;
    process.env.SG_TOOLS_PYTHON = '/nonexistent/python3';
    try {
      expect(() => solveNetwork({ name: 'x', classes: [], stations: [] })).toThrow(/cannot run \/nonexistent\/python3/);
    } finally {
      if (saved === undefined) delete process.env.SG_TOOLS_PYTHON;
      else process.env.SG_TOOLS_PYTHON = saved;
    }
  });
});
