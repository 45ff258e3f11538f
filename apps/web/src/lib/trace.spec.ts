import { waterfallOf, type JaegerTrace } from './trace';

const span = (id: string, parent: string | undefined, start: number, duration: number, processID = 'p1') => ({
  traceID: 't',
  spanID: id,
  operationName: `op-${id}`,
  references: parent ? [{ refType: 'CHILD_OF', traceID: 't', spanID: parent }] : [],
  startTime: start,
  duration,
  processID,
});

describe('waterfallOf', () => {
  // root [0,100]; a [10,40] and b [20,90] overlap: b finishes last, so b is on the path, and
  // a only for [10,20) (before b started); c [50,60] is inside b; d [95,120] runs past the root.
  const trace: JaegerTrace = {
    traceID: 't',
    processes: { p1: { serviceName: 'gateway' }, p2: { serviceName: 'exercise' } },
    spans: [span('root', undefined, 0, 100), span('a', 'root', 10, 30), span('b', 'root', 20, 70, 'p2'), span('c', 'b', 50, 10, 'p2'), span('d', 'root', 95, 25)],
  };
  const w = waterfallOf(trace);
  const get = (id: string) => w.spans.find((s) => s.id === id)!;

  it('orders spans as a tree with depths', () => {
    expect(w.spans.map((s) => [s.id, s.depth])).toEqual([
      ['root', 0],
      ['a', 1],
      ['b', 1],
      ['c', 2],
      ['d', 1],
    ]);
    expect([w.startUs, w.endUs]).toEqual([0, 120]);
  });

  it('walks the latest-finishing child chain, clamped to the parent window', () => {
    expect(get('d').critical).toEqual([[95, 100]]);
    expect(get('b').critical.sort((x, y) => x[0] - y[0])).toEqual([
      [20, 50],
      [60, 90],
    ]);
    expect(get('c').critical).toEqual([[50, 60]]);
    expect(get('a').critical).toEqual([[10, 20]]);
    expect(get('root').critical.sort((x, y) => x[0] - y[0])).toEqual([
      [0, 10],
      [90, 95],
    ]);
  });

  it('sums critical time per service to the root duration', () => {
    expect(w.byService).toEqual([
      { service: 'exercise', us: 70 },
      { service: 'gateway', us: 30 },
    ]);
    expect(w.criticalUs).toBe(100);
    expect(w.byOperation[0]).toEqual({ service: 'exercise', name: 'op-b', us: 60 });
  });
});
