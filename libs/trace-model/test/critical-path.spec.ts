import { walkCriticalPath, type PathSpan } from '../src/critical-path';

interface S extends PathSpan {
  id: string;
  kids: S[];
}
const span = (id: string, startUs: number, endUs: number, kids: S[] = []): S => ({ id, startUs, endUs, kids });

describe('walkCriticalPath (latest-finishing child chain)', () => {
  // root [0,100]: a [10,40] and b [20,90] overlap, b finishes last; c [50,60] inside b; d [95,120] runs past the root.
  const c = span('c', 50, 60);
  const b = span('b', 20, 90, [c]);
  const root = span('root', 0, 100, [span('a', 10, 40), b, span('d', 95, 120)]);
  const visits = walkCriticalPath(root, (s) => s.kids);
  const own = (id: string) => visits.find((v) => v.span.id === id)?.own.sort((x, y) => x[0] - y[0]);

  it('clamps each child to its parent window and gives each span its own time on the path', () => {
    expect(own('root')).toEqual([[0, 10], [90, 95]]);
    expect(own('d')).toEqual([[95, 100]]);
    expect(own('b')).toEqual([[20, 50], [60, 90]]);
    expect(own('c')).toEqual([[50, 60]]);
    expect(own('a')).toEqual([[10, 20]]);
  });

  it('covers the root exactly once, parents visited before their children', () => {
    const total = visits.flatMap((v) => v.own).reduce((sum, [from, to]) => sum + (to - from), 0);
    expect(total).toBe(100);
    const order = visits.map((v) => v.span.id);
    for (const v of visits) if (v.parent) expect(order.indexOf(v.parent.id)).toBeLessThan(order.indexOf(v.span.id));
  });
});
