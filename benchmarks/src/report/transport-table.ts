// Paper 002's comparison: the same topology with REST or gRPC between its services. Two runs
// whose specs differ only by `transport` (name, description and paper reference aside), same
// profile and tracing, become one table: http, grpc, and grpc / http.
import type { Estimate } from '../aggregate';
import type { Aggregated } from '../types';
import { cell, shortOfValid, type Table } from './tables';

export interface TransportCandidate {
  aggregated: Aggregated;
  /** The resolved spec as run (spec.yaml of the run folder). */
  spec: Record<string, unknown> | null;
  /** breakdown.json written by traces/, when the run was analysed. */
  breakdown: unknown | null;
}

const NOT_THE_WIRING = new Set(['name', 'description', 'paper', 'transport', 'extends']);

/** The spec without what may differ between two wirings of the same topology, keys sorted. */
export function wiringKey(spec: Record<string, unknown>): string {
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sorted(Object.fromEntries(Object.entries(spec).filter(([k]) => !NOT_THE_WIRING.has(k)))));
}

/** Pairs [http, grpc] of runs differing only by transport (same profile and tracing). */
export function transportPairs(candidates: TransportCandidate[]): [TransportCandidate, TransportCandidate][] {
  const transportOf = (c: TransportCandidate): unknown => c.spec?.transport ?? 'http';
  const key = (c: TransportCandidate): string => `${c.aggregated.meta.profileName}|${c.aggregated.meta.tracing}|${wiringKey(c.spec!)}`;
  const withSpec = candidates.filter((c) => c.spec !== null);
  const pairs: [TransportCandidate, TransportCandidate][] = [];
  for (const h of withSpec.filter((c) => transportOf(c) === 'http')) {
    const g = withSpec.find((c) => transportOf(c) === 'grpc' && key(c) === key(h));
    if (g) pairs.push([h, g]);
  }
  return pairs;
}

interface Row {
  label: string;
  get: (a: Aggregated) => Estimate | undefined;
  kind: 'ms' | 'num2' | 'pct';
  scale?: number;
}

const H = 'stages.hold.';
const ROWS: Row[] = [
  { label: 'End-to-end p50 (OK requests, ms)', get: (a) => a.paper[`${H}p50`], kind: 'ms' },
  { label: 'End-to-end p95 (ms)', get: (a) => a.paper[`${H}p95`], kind: 'ms' },
  { label: 'End-to-end average (ms)', get: (a) => a.paper[`${H}avg`], kind: 'ms' },
  { label: 'SPS p95 (ms)', get: (a) => a.paper[`${H}sps.p95`], kind: 'ms' },
  { label: 'Throughput (OK/s)', get: (a) => a.paper[`${H}throughput`], kind: 'num2' },
  { label: 'Error rate: efr_paper', get: (a) => a.paper[`${H}efr_paper`], kind: 'pct' },
  { label: 'Error rate: ko_rate', get: (a) => a.paper[`${H}ko_rate`], kind: 'pct' },
  { label: 'CPU per OK request, variant processes (ms)', get: (a) => a.resources.cpuSPerOk, kind: 'num2', scale: 1000 },
  { label: 'CPU per OK request, machine minus client (ms)', get: (a) => a.resources.machineCpuSPerOk, kind: 'num2', scale: 1000 },
];

function scaled(e: Estimate | undefined, f = 1): Estimate | undefined {
  return e && { ...e, mean: e.mean * f, ci95: e.ci95 === null ? null : e.ci95 * f, min: e.min * f, max: e.max * f };
}

/** grpc / http of two means, or n/a. */
export function ratio(http: number | undefined, grpc: number | undefined): string {
  return http === undefined || grpc === undefined || http === 0 ? 'n/a' : `${(grpc / http).toFixed(2)}×`;
}

/** Mean ms per trace component over the median band (traces/ breakdown.json), per component name. */
export function hopMs(breakdown: unknown): Record<string, number> {
  const v = (breakdown as { variants?: { medianBand?: Record<string, number> }[] } | null)?.variants?.[0]?.medianBand;
  return v ?? {};
}

export function transportTable(http: TransportCandidate, grpc: TransportCandidate): Table {
  const [h, g] = [http.aggregated, grpc.aggregated];
  const val = (a: Aggregated, r: Row): string => shortOfValid(a) ?? cell(scaled(r.get(a), r.scale), r.kind);
  const rows = ROWS.map((r) => ({ label: r.label, cells: [val(h, r), val(g, r), ratio(scaled(r.get(h), r.scale)?.mean, scaled(r.get(g), r.scale)?.mean)] }));
  const hHops = hopMs(http.breakdown);
  const gHops = hopMs(grpc.breakdown);
  for (const c of [...new Set([...Object.keys(hHops), ...Object.keys(gHops)])].sort()) {
    const fmt = (x: number | undefined): string => (x === undefined ? 'n/a' : `${x.toFixed(1)} ms`);
    rows.push({ label: `Per hop (traces, median band): ${c}`, cells: [fmt(hHops[c]), fmt(gHops[c]), ratio(hHops[c], gHops[c])] });
  }
  const notes = [
    `Same topology and profile (${h.meta.profileName}), internal hops over REST (http) or gRPC: the specs differ only by transport. Hold stage, mean over the VALID runs ± 95% CI (${h.validRuns} and ${g.validRuns} valid runs); ratio = grpc / http of the means.`,
    http.breakdown || grpc.breakdown
      ? 'Per hop: mean ms per trace component over requests whose latency lies between p40 and p60 (traces/ breakdown.json, run with --tracing on).'
      : 'Per hop: no trace breakdown for these runs (run them with --tracing on, then npm run traces -- <run-id>).',
  ];
  return { id: `table-transport-${h.meta.variant}`, title: `Transport http vs grpc: ${h.meta.variant} vs ${g.meta.variant} (paper 002)`, columns: [`http: ${h.meta.variant}`, `grpc: ${g.meta.variant}`, 'grpc / http'], rows, notes };
}

export function transportTables(candidates: TransportCandidate[]): Table[] {
  return transportPairs(candidates).map(([h, g]) => transportTable(h, g));
}
