/** perf report text → CPU per grading by component (grader-profile.ts), on perf output recorded here. */
import { componentOfComm, costByComponent, parseReport } from '../../src/profiling/perf-report';

// `perf report --no-children --sort comm --stdio -g none` of the zygote loop, 2 CPUs, 6 s, 270 gradings
const BY_COMM = `
# Samples: 10K of event 'cpu-clock:ppp'
#
    45.18%  grade-en
    16.61%  swapper
    10.67%  bwrap
    10.14%  node
     4.74%  python3
     3.73%  sh
     3.72%  setpriv
     2.42%  prlimit
     0.53%  rcu_exp_gp_kthr
`;

describe('perf report', () => {
  it('reads each line as a share and a key', () => {
    const shares = parseReport(BY_COMM);
    expect(shares).toHaveLength(9);
    expect(shares[0]).toEqual({ pct: 45.18, name: 'grade-en' });
    expect(parseReport('     3.07%  grade-en         libpython3.11.so.1.0      [.] _PyEval_EvalFrameDefault')[0].name).toBe('grade-en  libpython3.11.so.1.0  [.] _PyEval_EvalFrameDefault');
  });

  it('groups processes into the grading components', () => {
    expect(['grade-fr', 'python3', 'python3.11'].map(componentOfComm)).toEqual(Array(3).fill('grader interpreter (Python)'));
    expect(componentOfComm('bwrap')).toBe('sandbox set-up (bwrap)');
    expect(componentOfComm('setpriv')).toBe('exec helpers (prlimit, setpriv, nice, timeout)');
    expect(componentOfComm('swapper')).toBe('idle');
    expect(componentOfComm('kworker/0:1')).toBe('other');
  });

  it('turns shares into CPU ms per grading, idle left out, most expensive first', () => {
    const costs = costByComponent(parseReport(BY_COMM), 2, 6, 270);
    expect(costs[0]).toEqual({ component: 'grader interpreter (Python)', pct: 49.92, msPerGrading: 22.19 });
    expect(costs.map((c) => c.component)).not.toContain('idle');
    const busy = costs.reduce((s, c) => s + c.pct, 0);
    expect(busy).toBeCloseTo(45.18 + 10.67 + 10.14 + 4.74 + 3.73 + 3.72 + 2.42 + 0.53, 5); // every line but idle
  });
});
