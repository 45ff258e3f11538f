/**
 * Reads `perf report --stdio` text (system-wide samples of a grader-only loop) into where one
 * grading's CPU goes: by process name, grouped into the grading's components, and the top symbols.
 * Pure: unit-tested on recorded perf output.
 */

export type GradingComponent = 'service (Node)' | 'grader interpreter (Python)' | 'sandbox set-up (bwrap)' | 'exec helpers (prlimit, setpriv, nice, timeout)' | 'shell (scripts under test, cgroup join)' | 'idle' | 'other';

/** First match wins. Python processes show as python3, or as grade-<locale> once a job renamed itself. */
const COMMS: [GradingComponent, RegExp][] = [
  ['idle', /^swapper/],
  ['service (Node)', /^(node|node-MainThread|libuv-worker)$/],
  ['grader interpreter (Python)', /^(python3(\.\d+)?|grade-.*)$/],
  ['sandbox set-up (bwrap)', /^bwrap$/],
  ['exec helpers (prlimit, setpriv, nice, timeout)', /^(prlimit|setpriv|nice|timeout)$/],
  ['shell (scripts under test, cgroup join)', /^(sh|dash|bash|cat|tr|grep|tar|sleep|ls|chmod)$/],
];

export function componentOfComm(comm: string): GradingComponent {
  return COMMS.find(([, re]) => re.test(comm))?.[0] ?? 'other';
}

export interface Share {
  name: string;
  /** Percent of all samples (every CPU, idle included). */
  pct: number;
}

/** `perf report --no-children -g none --stdio` lines "   45.18%  grade-en" (first column the share, the rest the key). */
export function parseReport(text: string): Share[] {
  const shares: Share[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\d+(?:\.\d+)?)%\s+(.+?)\s*$/.exec(line);
    if (m) shares.push({ pct: Number(m[1]), name: m[2].replace(/\s{2,}/g, '  ') });
  }
  return shares;
}

export interface ComponentCost {
  component: GradingComponent;
  pct: number;
  /** CPU ms per grading: share × (CPUs × seconds sampled) ÷ gradings. */
  msPerGrading: number;
}

/** Busy CPU by component, in ms per grading, most expensive first (idle left out). */
export function costByComponent(byComm: Share[], cpus: number, seconds: number, gradings: number): ComponentCost[] {
  const totals = new Map<GradingComponent, number>();
  for (const s of byComm) totals.set(componentOfComm(s.name), (totals.get(componentOfComm(s.name)) ?? 0) + s.pct);
  totals.delete('idle');
  const msPer = (pct: number) => (gradings > 0 ? (pct / 100) * cpus * seconds * 1000 / gradings : 0);
  return [...totals.entries()]
    .map(([component, pct]) => ({ component, pct: round(pct), msPerGrading: round(msPer(pct)) }))
    .sort((a, b) => b.pct - a.pct);
}

const round = (x: number) => Math.round(x * 100) / 100;
