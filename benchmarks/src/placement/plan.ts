// Whether a test places its load generator and its system under test on CPUs of their own, and
// which: the options (--placement, --client-cpus, --sut-cpus), the default for the kind of test,
// and what the machine offers (detect.ts). Pure: the unit tests feed it fabricated inputs.
import type { CpusetDetection } from './detect';
import { formatCpuList, parseCpuList } from './cpu-list';
import type { TestbedRecord, TestbedRequest } from './testbed';

export interface PlacementRequest {
  /** on / off; unset: the default for the kind of test (CPU lists given also mean on). */
  mode?: 'on' | 'off';
  /** CPU lists in the kernel's format, e.g. "1" and "0". */
  clientCpus?: string;
  sutCpus?: string;
  /** --testbed (testbed.ts): travels with the placement, through every runner that passes it on. */
  testbed?: TestbedRequest;
}

export interface PlacementPlan {
  /** on: both groups will be made; off: not asked for; unavailable: asked for, the machine cannot. */
  state: 'on' | 'off' | 'unavailable';
  /** Why this state: the option, the default that applied, or what the machine lacks. */
  why: string;
  clientCpus: number[];
  sutCpus: number[];
  /** The cgroup version used (state on). */
  cgroup?: 1 | 2;
  /** unscaled or the scale model, with s, the quotas and the throttling per run (testbed.ts). Absent in older records: unscaled. */
  testbed?: TestbedRecord;
}

export interface TestKind {
  profileName: string;
  /** The profile's suite kind, if it is one. */
  suiteKind?: string;
  /** Part of `npm run findings`. */
  findings?: boolean;
}

const OVERLOAD_SUITES = new Set(['stress', 'spike']);

/**
 * Default on where the client would compete hardest: findings, the stress and spike suites and
 * the `students` overload profile. Off for plain runs (small, short, …) and for every -smoke
 * profile (they check the plumbing in seconds, they measure nothing).
 */
export function placementDefault(kind: TestKind): { on: boolean; why: string } {
  if (kind.findings) return { on: true, why: 'default for findings' };
  if (kind.profileName.endsWith('-smoke')) return { on: false, why: `default off for the ${kind.profileName} profile (a smoke run)` };
  if (kind.suiteKind && OVERLOAD_SUITES.has(kind.suiteKind)) return { on: true, why: `default for ${kind.suiteKind} suites` };
  if (/^students\b/.test(kind.profileName)) return { on: true, why: 'default for the students (overload) profile' };
  return { on: false, why: `default off for the ${kind.profileName} profile` };
}

const off = (why: string): PlacementPlan => ({ state: 'off', why, clientCpus: [], sutCpus: [] });

/** The plan, or an Error for options that contradict each other or the machine. */
export function planPlacement(req: PlacementRequest, kind: TestKind, detection: CpusetDetection): PlacementPlan {
  const listsGiven = req.clientCpus !== undefined || req.sutCpus !== undefined;
  if (req.mode === 'off' && listsGiven) throw new Error('--placement off contradicts --client-cpus/--sut-cpus');
  if (req.mode === 'off') return off('--placement off');
  const dflt = placementDefault(kind);
  if (req.mode === undefined && !listsGiven && !dflt.on) return off(dflt.why);
  const why = req.mode === 'on' ? '--placement on' : listsGiven ? '--client-cpus/--sut-cpus given' : dflt.why;
  const client = req.clientCpus === undefined ? null : parseCpuList(req.clientCpus);
  const sut = req.sutCpus === undefined ? null : parseCpuList(req.sutCpus);
  if (!detection.available) return { state: 'unavailable', why: `${why}, but no usable cpuset: ${detection.reason}`, clientCpus: client ?? [], sutCpus: sut ?? [] };
  const all = detection.flavour.cpus;
  for (const [name, list] of [['--client-cpus', client], ['--sut-cpus', sut]] as const) {
    if (list === null) continue;
    if (list.length === 0) throw new Error(`${name} is empty`);
    const foreign = list.filter((c) => !all.includes(c));
    if (foreign.length) throw new Error(`${name} ${formatCpuList(list)}: CPU ${formatCpuList(foreign)} not in this cpuset (${formatCpuList(all)})`);
  }
  if (all.length < 2 && (!client || !sut)) return { state: 'unavailable', why: `${why}, but this cpuset has one CPU (${formatCpuList(all)}): nothing to give the client apart`, clientCpus: [], sutCpus: [] };
  // Unset: the client gets the highest CPU, the system the others; one list given: the other is the rest.
  const clientCpus = client ?? (sut ? all.filter((c) => !sut.includes(c)) : [all[all.length - 1]]);
  const sutCpus = sut ?? all.filter((c) => !clientCpus.includes(c));
  if (clientCpus.length === 0 || sutCpus.length === 0) throw new Error(`placement needs CPUs on both sides: client ${formatCpuList(clientCpus) || 'none'}, system ${formatCpuList(sutCpus) || 'none'}`);
  const shared = clientCpus.filter((c) => sutCpus.includes(c));
  if (shared.length) throw new Error(`--client-cpus and --sut-cpus share CPU ${formatCpuList(shared)}: the client would compete again`);
  return { state: 'on', why, clientCpus, sutCpus, cgroup: detection.flavour.version };
}

/** One line for logs and reports: "on (cgroup v1): client CPU 1, system CPU 0 — default for stress suites". */
export function placementText(p: PlacementPlan): string {
  if (p.state === 'on') return `on (cgroup v${p.cgroup} cpuset): client CPU ${formatCpuList(p.clientCpus)}, system under test CPU ${formatCpuList(p.sutCpus)} — ${p.why}`;
  return `${p.state} — ${p.why}`;
}
