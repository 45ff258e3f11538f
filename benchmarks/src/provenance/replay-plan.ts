// `bench replay <manifest>`: what it would run — the recorded spec (written back to a file, so a
// preset edited since cannot change it), the recorded protocol as explicit overrides (so an
// edited k6/profiles.json cannot either) — and what differs now that a replay cannot undo.
import { join } from 'node:path';
import type { MachineFacts } from '../machine';
import { resultStamp } from '../paths';
import type { Profile } from '../profiles';
import { formatCpuList } from '../placement/cpu-list';
import type { PlacementPlan, PlacementRequest } from '../placement/plan';
import type { EnvironmentFacts } from './facts';
import type { Manifest, ProtocolOverrides } from './manifest';

/** The options `bench run` takes, as the replay sets them (a subset of RunOptions): the recorded protocol, explicit. */
export type ReplayRunOptions = Omit<ProtocolOverrides, 'tracing' | 'kdfCost'> & {
  variant: string;
  profile: string;
  runId: string;
  runs: number;
  pauseS: number;
  /** The recorded placement, asked again (absent when the original recorded none). */
  placement?: PlacementRequest;
};

/** The placement the original ran with: the same CPUs, off, or — unavailable then — asked for again. */
export function replayPlacement(p: PlacementPlan | undefined): PlacementRequest | undefined {
  if (!p) return undefined;
  if (p.state === 'on') return { clientCpus: formatCpuList(p.clientCpus), sutCpus: formatCpuList(p.sutCpus) };
  return { mode: p.state === 'off' ? 'off' : 'on' };
}

function placementFlags(r: PlacementRequest): string[] {
  return [...(r.mode ? [`--placement ${r.mode}`] : []), ...(r.clientCpus ? [`--client-cpus ${r.clientCpus}`] : []), ...(r.sutCpus ? [`--sut-cpus ${r.sutCpus}`] : [])];
}

export interface ReplayPlan {
  original: string;
  specFile: string;
  spec: Record<string, unknown>;
  options: ReplayRunOptions;
  /** Differences between then and now the replay cannot undo (each may explain a disagreement). */
  drift: string[];
}

export interface Now {
  at: Date;
  resultsRoot: string;
  /** The named profile as k6/profiles.json has it today (null: it no longer exists). */
  profile: Profile | null;
  env: EnvironmentFacts | null;
  machine: MachineFacts | null;
}

/** The recorded protocol as overrides: a plain profile entirely, a suite by its recorded overrides. */
function protocolOf(m: Manifest): Omit<ReplayRunOptions, 'variant' | 'profile' | 'runId'> {
  const e = m.profile.effective;
  const o = m.profile.overrides;
  const common = { runs: e.runs, pauseS: e.betweenRunsS, apdexTMs: o.apdexTMs, raw: o.raw };
  // A suite's steps are resolved from its profile and --peak/--saturation; a plain profile's injection is explicit.
  if (e.suite) return { ...common, peak: o.peak, saturation: o.saturation ?? (e.suite.kind === 'soak' && o.peak === undefined ? e.peak : undefined), holdS: o.holdS };
  return { ...common, peak: e.peak, rampS: e.rampS, holdS: e.holdS, connectionReuse: e.connectionReuse, arrivals: e.arrivals };
}

const PROFILE_FIXED: (keyof Profile)[] = ['students', 'pauseS', 'thresholds', 'timeoutS'];

function profileDrift(m: Manifest, now: Profile | null): string[] {
  if (!now) return [`profile "${m.profile.name}" no longer exists in k6/profiles.json`];
  const e = m.profile.effective;
  const out = PROFILE_FIXED.filter((k) => JSON.stringify(e[k]) !== JSON.stringify(now[k])).map((k) => `profile ${k}: ${JSON.stringify(e[k])} then, ${JSON.stringify(now[k])} now (not overridable)`);
  if (e.suite && JSON.stringify(e.suite.kind) !== JSON.stringify(now.suite?.kind)) out.push(`suite kind: ${e.suite.kind} then, ${now.suite?.kind ?? 'none'} now`);
  return out;
}

/** A fact not recorded then (null, {}) is unknown, not different. */
function changed(label: string, then: unknown, now: unknown): string[] {
  const unknown = then === null || then === undefined || (typeof then === 'object' && Object.keys(then).length === 0);
  return unknown || JSON.stringify(then) === JSON.stringify(now) ? [] : [`${label}: ${JSON.stringify(then)} then, ${JSON.stringify(now)} now`];
}

function environmentDrift(m: Manifest, env: EnvironmentFacts | null, machine: MachineFacts | null): string[] {
  const out: string[] = [];
  if (env) {
    out.push(...changed('project commit', m.project.commit, env.project.commit));
    if (m.project.dirty) out.push('the original ran from a tree with uncommitted changes: its code is not exactly recoverable');
    if (env.project.dirty) out.push('the tree has uncommitted changes now');
    out.push(...changed('python', m.versions.python, env.versions.python), ...changed('server packages', m.versions.servers, env.versions.servers), ...changed('pinned tools', m.versions.pinnedTools, env.versions.pinnedTools));
  }
  if (machine) {
    out.push(...changed('k6', m.versions.k6, machine.k6), ...changed('node', m.versions.node, machine.node));
    out.push(...changed('cores', m.machine.cores, machine.cores), ...changed('memory bytes', m.machine.memBytes, machine.memBytes), ...changed('kernel', m.machine.kernel, machine.kernel), ...changed('cpu', m.machine.cpuModel, machine.cpuModel));
  }
  return out;
}

export function planReplay(m: Manifest, now: Now): ReplayPlan {
  const runId = `${resultStamp(now.at)}-${m.variant.name}-${m.profile.name}-replay`;
  const specFile = join(now.resultsRoot, 'replays', `${runId}.spec.yaml`);
  const options = Object.fromEntries(
    Object.entries({ variant: specFile, profile: m.profile.name, runId, ...protocolOf(m), placement: replayPlacement(m.placement) }).filter(([, v]) => v !== undefined),
  ) as unknown as ReplayRunOptions;
  return { original: m.runId, specFile, spec: m.variant.spec, options, drift: [...profileDrift(m, now.profile), ...environmentDrift(m, now.env, now.machine)] };
}

export function replayPlanText(p: ReplayPlan): string {
  const o = p.options;
  const flags = Object.entries(o)
    .filter(([k]) => !['variant', 'profile', 'runId', 'placement'].includes(k))
    .map(([k, v]) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v)}`)
    .concat(o.placement ? placementFlags(o.placement) : []);
  return [
    `replay of ${p.original}: the recorded spec (${String(p.spec.name)}) -> ${p.specFile}`,
    `bench run --variant ${o.variant} --profile ${o.profile} --run-id ${o.runId} ${flags.join(' ')}`,
    `then: bench compare ${p.original} ${o.runId}`,
    p.drift.length ? `drift the replay cannot undo:\n${p.drift.map((d) => `  - ${d}`).join('\n')}` : 'no drift: same commit, versions, machine and profile',
  ].join('\n');
}
