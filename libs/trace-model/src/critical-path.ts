/**
 * The critical path of one trace by the "latest-finishing child chain" method (Jaeger's
 * critical-path view): from the end of a span, the child finishing last (clamped to the span's
 * window) is on the path; before it, the child finishing last before that child started, and
 * so on. The gaps between them are the span's own time on the path. Children are clamped to
 * their parent's window, so async work finishing after the parent, and overlapped siblings,
 * add nothing. One walk, used by the latency attribution (traces/) and the console's waterfall
 * (apps/web), which differ only in what they add the own time to.
 */

export interface PathSpan {
  startUs: number;
  endUs: number;
}

/** One span reached by the walk: its window on the path and its own time there (µs since the epoch). */
export interface PathVisit<S extends PathSpan> {
  span: S;
  /** The span it was reached from (absent for the root). */
  parent?: S;
  /** The span clamped to its parent's window on the path. */
  startUs: number;
  endUs: number;
  /** Its children overlapping that window (the candidates for the path). */
  children: S[];
  /** Its own time on the path: [from, to) intervals, latest first, each non-empty. */
  own: [number, number][];
}

/** Walks the path from `root` (parents before their children; explicit stack: deep traces cannot overflow). */
export function walkCriticalPath<S extends PathSpan>(root: S, childrenOf: (span: S) => readonly S[]): PathVisit<S>[] {
  const visits: PathVisit<S>[] = [];
  const stack: { span: S; parent?: S; lo: number; hi: number }[] = [{ span: root, lo: root.startUs, hi: root.endUs }];
  while (stack.length > 0) {
    const { span, parent, lo, hi } = stack.pop()!;
    const start = Math.max(span.startUs, lo);
    const end = Math.min(span.endUs, hi);
    if (end <= start) continue;
    const children = childrenOf(span).filter((c) => c.endUs > start && c.startUs < end);
    const own: [number, number][] = [];
    const addOwn = (from: number, to: number) => {
      if (to > from) own.push([from, to]);
    };
    // Latest end first; walking the list once works because the cursor only moves left.
    const byEnd = [...children].sort((a, b) => b.endUs - a.endUs);
    let cursor = end;
    for (const kid of byEnd) {
      if (kid.startUs >= cursor) continue; // overlapped by a later child already on the path
      const kidEnd = Math.min(kid.endUs, cursor);
      const kidStart = Math.max(kid.startUs, start);
      addOwn(kidEnd, cursor);
      stack.push({ span: kid, parent: span, lo: kidStart, hi: kidEnd });
      cursor = kidStart;
      if (cursor <= start) break;
    }
    addOwn(start, cursor);
    visits.push({ span, parent, startUs: start, endUs: end, children, own });
  }
  return visits;
}
