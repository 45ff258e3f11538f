// Service demands (CPU seconds per iteration of scenario R, per request class and component)
// from a finished run folder: the harness's cgroup CPU per process group over the request counts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord, TestMeta } from '../types';
import { stationOfGroup } from './groups';

/** Scenario R's two request classes: the SPS (and its preflight) vs everything else of an iteration. */
export const CLASSES = ['session', 'sps'] as const;
export type RequestClass = (typeof CLASSES)[number];
/** Requests of each class in one iteration (10 in all). */
export const REQUESTS_PER_ITERATION: Record<RequestClass, number> = { session: 8, sps: 2 };

/** Where CPU goes, independent of how a variant wires it (the network maps these onto stations). */
export const COMPONENTS = ['app', 'gateway', 'haproxy', 'postgres', 'broker', 'loadgen'] as const;
export type Component = (typeof COMPONENTS)[number];
export type ClassDemands = Record<RequestClass, number>;

export interface Demands {
  schema: 'shellgrade.model-demands/1';
  source: string;
  variant: string;
  /** Valid runs the figures come from, and the iterations they started. */
  runs: number[];
  iterations: number;
  /** CPU seconds per iteration, per component and class. */
  components: Record<Component, ClassDemands>;
  /** CPU seconds of one sandboxed grading alone (the run's grader baseline), null without one. */
  gradingCpuS: number | null;
  /** How each figure was split between classes (an assumption, said so). */
  notes: string[];
}

const zero = (): ClassDemands => ({ session: 0, sps: 0 });

/** Split of a per-request cost (gateway, proxy, database, client) by request count. */
function byRequests(cpuPerIteration: number): ClassDemands {
  return { session: (cpuPerIteration * REQUESTS_PER_ITERATION.session) / 10, sps: (cpuPerIteration * REQUESTS_PER_ITERATION.sps) / 10 };
}

/** The rows of grader-baseline.json this model reads (benchmarks/grader-baseline writes them). */
export interface GraderBaselineFile {
  rows?: { exec?: string; isolation?: string; concurrency?: number; msPerGrading?: number }[];
}

/**
 * CPU-s of one grading alone: the sandboxed grader-only baseline (one at a time, the cheapest mode
 * starting a sandbox per grading), null without it. Zygote rows are left out: a preset grading
 * that way costs far less per grading than the async/blocking/pool modes the calibrated presets use.
 */
export function gradingCpuS(baseline: GraderBaselineFile | null | undefined): number | null {
  const rows = (baseline?.rows ?? []).filter((r) => r.concurrency === 1 && r.isolation === 'bwrap' && r.exec !== 'zygote');
  const ms = rows.map((r) => r.msPerGrading).filter((v): v is number => typeof v === 'number' && v > 0);
  return ms.length ? Math.min(...ms) / 1000 : null;
}

/** Demands from records already read (pure: unit-tested on fixtures). */
export function demandsFromRuns(source: string, meta: TestMeta, runs: RunRecord[], baseline: GraderBaselineFile | null): Demands {
  const valid = runs.filter((r) => r.valid);
  if (!valid.length) throw new Error(`${source}: no VALID run to measure demands from`);
  const iterations = valid.reduce((s, r) => s + r.paper.iterations.started, 0);
  if (iterations <= 0) throw new Error(`${source}: the valid runs started no iteration`);
  const cpu: Record<string, number> = {};
  for (const r of valid) {
    for (const [group, s] of Object.entries(r.resources.cpuSByGroup)) {
      const c = stationOfGroup(group);
      if (c) cpu[c] = (cpu[c] ?? 0) + s;
    }
    cpu.loadgen = (cpu.loadgen ?? 0) + r.resources.k6CpuS;
  }
  const per = (c: string) => (cpu[c] ?? 0) / iterations;
  const components = Object.fromEntries(COMPONENTS.map((c) => [c, zero()])) as Record<Component, ClassDemands>;
  const notes = ['gateway, haproxy, postgres and load-generator CPU split between classes by request count (2 of 10 requests are SPS)'];
  for (const c of ['gateway', 'haproxy', 'postgres', 'loadgen'] as const) components[c] = byRequests(per(c));
  components.broker = { session: 0, sps: per('broker') };
  if (cpu.monolith !== undefined) {
    // One process does both classes: grading's share is the grader-only baseline's CPU per grading.
    const total = per('monolith');
    const grading = gradingCpuS(baseline);
    if (grading === null) throw new Error(`${source}: a monolith run needs grader-baseline.json to split its CPU between classes`);
    const sps = Math.min(total, grading);
    components.app = { session: total - sps, sps };
    notes.push(`monolith CPU split: sps = one sandboxed grading of the baseline (${(grading * 1000).toFixed(1)} ms), session = the rest`);
  } else {
    components.app = { session: per('leftover'), sps: per('exercise') };
    notes.push('msa: leftover CPU is the session class, exercise CPU the sps class');
  }
  const grading = gradingCpuS(baseline);
  return { schema: 'shellgrade.model-demands/1', source, variant: meta.variant, runs: valid.map((r) => r.run), iterations, components, gradingCpuS: grading, notes };
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every run-N.json of a run folder, in run order. */
export function readRuns(dir: string): RunRecord[] {
  return readdirSync(dir)
    .filter((f) => /^run-\d+\.json$/.test(f))
    .map((f) => readJson<RunRecord>(join(dir, f)))
    .sort((a, b) => a.run - b.run);
}

export function readMeta(dir: string): TestMeta {
  return readJson<TestMeta>(join(dir, 'meta.json'));
}

/** Demands of a run folder (meta.json, run-N.json, grader-baseline.json when present). */
export function measureDemands(dir: string): Demands {
  if (!existsSync(join(dir, 'meta.json'))) throw new Error(`${dir}: not a run folder (no meta.json)`);
  const baselineFile = join(dir, 'grader-baseline.json');
  const baseline = existsSync(baselineFile) ? readJson<GraderBaselineFile>(baselineFile) : null;
  return demandsFromRuns(dir, readMeta(dir), readRuns(dir), baseline);
}
