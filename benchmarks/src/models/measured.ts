// What a run folder measured, in the model's terms: hold-stage throughput and mean response time
// per class (k6), and CPU utilisation per station (the harness's cgroup CPU per process group).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../types';
import type { RequestClass } from './demands';
import { stationOfGroup } from './groups';

/** The k6 request types of each class (benchmarks/README.md, scenario R). */
export const TYPES_OF: Record<RequestClass, string[]> = {
  sps: ['opt_sps', 'sps'],
  session: ['opt_login', 'login', 'opt_verify', 'verify', 'opt_logout', 'logout', 'opt_verify_out', 'verify_out'],
};

export interface Measured {
  runs: number;
  /** Iterations/s over the hold stage (SPS OK of hold iterations / holdS). */
  spsPerS: number;
  /** OK requests/s over the hold stage. */
  requestsPerS: number;
  /** Mean of the OK response times of each class's requests, summed over one iteration (s); null if k6 did not record it. */
  responseTimeS: Record<RequestClass, number | null>;
  /** Iterations/s over the whole run (ramp included): the rate utilisations are compared at. */
  meanArrivalRate: number;
  /** CPU-s of the station's processes / run duration (cores busy); machine = variant + k6. */
  cpuCoresByStation: Record<string, number>;
}

type K6Trend = { values?: { avg?: number; count?: number } };

/** Mean hold-stage response time (s) of one class from k6's trends, null when a type is missing. */
export function classResponseS(metrics: Record<string, K6Trend>, cls: RequestClass): number | null {
  let total = 0;
  for (const type of TYPES_OF[cls]) {
    const avg = metrics[`sg_rt_ok_${type}{stage:hold}`]?.values?.avg;
    if (typeof avg !== 'number') return null;
    total += avg / 1000;
  }
  return total;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function meanOrNull(xs: (number | null)[]): number | null {
  return xs.some((x) => x === null) || !xs.length ? null : mean(xs as number[]);
}

/** Measurements of the valid runs; k6 trends are read from k6-run-N.json beside each run. */
export function measuredFromRuns(runs: RunRecord[], k6Metrics: (run: number) => Record<string, K6Trend>): Measured {
  const valid = runs.filter((r) => r.valid);
  if (!valid.length) throw new Error('no VALID run to compare with');
  const cores: Record<string, number[]> = {};
  for (const r of valid) {
    const dur = r.paper.durationS;
    const byStation: Record<string, number> = { cpu: (r.resources.variantCpuS + r.resources.k6CpuS) / dur };
    for (const [group, s] of Object.entries(r.resources.cpuSByGroup)) {
      const st = stationOfGroup(group);
      if (st) byStation[st] = (byStation[st] ?? 0) + s / dur;
    }
    for (const [st, v] of Object.entries(byStation)) (cores[st] ??= []).push(v);
  }
  const hold = (r: RunRecord) => r.paper.stages?.hold ?? r.paper;
  return {
    runs: valid.length,
    spsPerS: mean(valid.map((r) => hold(r).sps.throughputHold ?? 0)),
    requestsPerS: mean(valid.map((r) => hold(r).throughput ?? 0)),
    responseTimeS: {
      session: meanOrNull(valid.map((r) => classResponseS(k6Metrics(r.run), 'session'))),
      sps: meanOrNull(valid.map((r) => classResponseS(k6Metrics(r.run), 'sps'))),
    },
    meanArrivalRate: mean(valid.map((r) => r.paper.iterations.started / r.paper.durationS)),
    cpuCoresByStation: Object.fromEntries(Object.entries(cores).map(([k, v]) => [k, mean(v)])),
  };
}

export function readK6Metrics(dir: string, run: number): Record<string, K6Trend> {
  const file = join(dir, `k6-run-${run}.json`);
  if (!existsSync(file)) return {};
  const json = JSON.parse(readFileSync(file, 'utf8')) as { k6?: { metrics?: Record<string, K6Trend> } };
  return json.k6?.metrics ?? {};
}
