// Where a test's CPU went, per iteration of scenario R: each process group of the system under
// test (a service with the sandboxed graders it forks — cgroup accounting counts a child in its
// parent's group —, PostgreSQL, the broker, Jaeger …), the rest of the machine (kernel threads,
// pm2, anything no group accounts for) and, apart, the client (k6 and the harness). What `npm run
// main` ends with and what `bench back-to-back` sets side by side.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROC_STAT_MACHINE } from './machine-cpu';
import type { Aggregated, RunRecord, TestMeta } from './types';

export interface CpuSplitRow {
  group: string;
  /** What the group is, in a reader's words. */
  kind: string;
  msPerIteration: number;
  /** Share of the system's CPU (machine minus client); null without machine CPU. */
  share: number | null;
}

export interface CpuSplit {
  /** Iterations started per run (mean over the VALID runs the figures come from). */
  iterations: number;
  /** Machine CPU minus the client's, ms per iteration: the system's whole cost. */
  machineMsPerIteration: number | null;
  /** Largest first. */
  rows: CpuSplitRow[];
  /** Machine − client − Σ groups, ms per iteration (null without machine CPU). */
  restMsPerIteration: number | null;
  /** Σ groups: the system under test's processes alone, each read from its own cgroup where there is one. */
  groupsMsPerIteration: number;
  /** k6's own CPU per iteration, not part of the system's. */
  clientMsPerIteration: number | null;
  /** How group CPU was measured (cgroup counts forked graders in their service). */
  source: string | null;
  /** How the machine's CPU was read (the root cgroup, or /proc/stat's ticks in runs that did not say). */
  machineSource: string;
  /** No run was VALID: the figures are those of the INVALID runs (say so beside them). */
  fromInvalid?: boolean;
}

const PREFIX = 'cpuSByGroup.';

/** A process group's kind: services (with their graders) are Node, servers by name. */
export function groupKind(group: string): string {
  const role = /^sg-(monolith|gateway|leftover|exercise)-\d+$/.exec(group)?.[1];
  if (role) return `Node ${role} (with its graders)`;
  if (group === 'sg-haproxy') return 'HAProxy';
  if (/^sg-/.test(group)) return `Node ${group.slice(3)}`;
  const servers: Record<string, string> = { postgres: 'PostgreSQL', redis: 'Redis', rabbitmq: 'RabbitMQ', minio: 'MinIO', jaeger: 'Jaeger (traces)' };
  return servers[group] ?? group;
}

const avg = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * The split from a test's run records (run-N.json): means over its VALID runs, else over all of
 * them (flagged) — a run made INVALID by a neighbour's load still says where its own CPU went.
 */
export function cpuSplitOfRuns(records: RunRecord[], meta: Pick<TestMeta, 'cpuAccounting' | 'machineCpuAccounting'> | null): CpuSplit | null {
  const valid = records.filter((r) => r.valid);
  const used = valid.length ? valid : records;
  const numbers = (xs: unknown[]): number[] => xs.filter((x): x is number => typeof x === 'number');
  const groups = [...new Set(used.flatMap((r) => Object.keys(r.resources.cpuSByGroup ?? {})))];
  const split = splitOf({
    iterations: avg(used.map((r) => r.paper.iterations.started)) ?? 0,
    machineCpuS: avg(numbers(used.map((r) => r.resources.machineCpuSButClient))),
    groupCpuS: groups.map((g) => [g, avg(used.map((r) => r.resources.cpuSByGroup?.[g] ?? 0))!] as const),
    clientCpuS: avg(numbers(used.map((r) => r.resources.k6CpuS))),
    source: meta?.cpuAccounting ?? null,
    machineSource: meta?.machineCpuAccounting ?? PROC_STAT_MACHINE,
  });
  return split && { ...split, fromInvalid: valid.length === 0 && records.length > 0 };
}

/** The run records of a run folder (run-1.json, run-2.json, …), in run order. */
export function readRunRecords(dir: string): RunRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^run-\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunRecord)
    .sort((a, b) => a.run - b.run);
}

/** The split of one test (means over its VALID runs); null when it recorded no iteration. */
export function cpuSplitOf(a: Aggregated): CpuSplit | null {
  return splitOf({
    iterations: a.paper['iterations.started']?.mean ?? 0,
    machineCpuS: a.resources.machineCpuSButClient?.mean ?? null,
    groupCpuS: Object.entries(a.resources)
      .filter(([k]) => k.startsWith(PREFIX))
      .map(([k, e]) => [k.slice(PREFIX.length), e.mean] as const),
    clientCpuS: a.resources.k6CpuS?.mean ?? null,
    source: a.meta.cpuAccounting ?? null,
    machineSource: a.meta.machineCpuAccounting ?? PROC_STAT_MACHINE,
  });
}

/** CPU seconds of one test, whichever file they were read from. */
interface CpuSeconds {
  iterations: number;
  machineCpuS: number | null;
  groupCpuS: ReadonlyArray<readonly [string, number]>;
  clientCpuS: number | null;
  source: string | null;
  machineSource: string;
}

/** Seconds per test → ms per iteration, each group's share of the system, and the rest no group accounts for. */
function splitOf({ iterations, machineCpuS, groupCpuS, clientCpuS, source, machineSource }: CpuSeconds): CpuSplit | null {
  if (!(iterations > 0)) return null;
  const perIt = (cpuS: number | null): number | null => (cpuS === null ? null : (1000 * cpuS) / iterations);
  const machineMs = perIt(machineCpuS);
  const rows = groupCpuS
    .map(([group, cpuS]) => {
      const msPerIteration = (1000 * cpuS) / iterations;
      return { group, kind: groupKind(group), msPerIteration, share: machineMs ? msPerIteration / machineMs : null };
    })
    .sort((x, y) => y.msPerIteration - x.msPerIteration);
  const groupsMs = rows.reduce((sum, r) => sum + r.msPerIteration, 0);
  return {
    iterations,
    machineMsPerIteration: machineMs,
    rows,
    restMsPerIteration: machineMs === null ? null : machineMs - groupsMs,
    groupsMsPerIteration: groupsMs,
    clientMsPerIteration: perIt(clientCpuS),
    source,
    machineSource,
  };
}

const ms = (v: number | null): string => (v === null ? 'n/a' : v.toFixed(1));
const pct = (v: number | null): string => (v === null ? 'n/a' : `${(100 * v).toFixed(0)} %`);

/** The split as a Markdown section. */
export function cpuSplitMarkdown(s: CpuSplit | null, heading = '## Where the CPU goes (per process group)'): string {
  if (!s) return `${heading}\n\nNo iteration was recorded: no CPU per iteration.\n`;
  const rest = s.restMsPerIteration;
  return [
    heading,
    '',
    `CPU ms per iteration of scenario R (${s.iterations.toFixed(0)} iterations started per run; group CPU measured by ${s.source ?? 'an unrecorded method'}, the machine's by ${s.machineSource}; a service's sandboxed graders count in its group).`,
    ...(s.fromInvalid ? ['', '**From INVALID runs** (no run was VALID: see their reasons above); the figures say where this run\'s CPU went, not a measurement of record.'] : []),
    '',
    '| process group | what | CPU ms / iteration | share of the system |',
    '|---|---|---:|---:|',
    ...s.rows.map((r) => `| ${r.group} | ${r.kind} | ${ms(r.msPerIteration)} | ${pct(r.share)} |`),
    `| (rest) | kernel, pm2, anything no group accounts for | ${ms(rest)} | ${pct(rest !== null && s.machineMsPerIteration ? rest / s.machineMsPerIteration : null)} |`,
    `| **system** | machine busy − client | **${ms(s.machineMsPerIteration)}** | 100 % |`,
    `| client | k6 (not the system's) | ${ms(s.clientMsPerIteration)} | — |`,
    '',
  ].join('\n');
}
