// Comparison tables in the shapes of paper 000's Tables I–III, as plain data (rendered to
// Markdown and HTML elsewhere). Each cell is the mean over runs ± the 95% CI half-width.
import type { Estimate } from '../aggregate';
import type { Baseline } from '../baseline';
import type { Aggregated } from '../types';

export interface Table {
  id: string;
  title: string;
  columns: string[];
  rows: { label: string; cells: string[] }[];
  notes: string[];
}

type Kind = 'pct' | 'int' | 'num1' | 'num2' | 'num3' | 'ms' | 'mb';

interface RowDef {
  label: string;
  key: string;
  kind: Kind;
}

function fmt(v: number, kind: Kind): string {
  switch (kind) {
    case 'pct':
      return `${(100 * v).toFixed(2)}%`;
    case 'int':
      return Math.round(v).toString();
    case 'num1':
      return v.toFixed(1);
    case 'num2':
      return v.toFixed(2);
    case 'num3':
      return v.toFixed(3);
    case 'ms':
      return `${Math.round(v)} ms`;
    case 'mb':
      return `${(v / 2 ** 20).toFixed(0)} MiB`;
  }
}

export function cell(e: Estimate | undefined, kind: Kind): string {
  if (!e) return 'n/a';
  const main = fmt(e.mean, kind);
  if (e.ci95 === null || e.n < 2) return main;
  const half = kind === 'pct' ? `${(100 * e.ci95).toFixed(2)}` : fmt(e.ci95, kind).replace(/ (ms|MiB)$/, '');
  return `${main} ±${half}`;
}

const AVAILABILITY_ROWS: RowDef[] = [
  { label: 'N (10 × VUs)', key: 'N', kind: 'int' },
  { label: 'OK', key: 'OK', kind: 'int' },
  { label: 'KO', key: 'KO', kind: 'int' },
  { label: 'Request Acceptance Capability (RAC)', key: 'RAC', kind: 'pct' },
  { label: 'Failure Rate (FR)', key: 'FR', kind: 'pct' },
  { label: 'Effective Failure Rate (EFR)', key: 'EFR', kind: 'pct' },
  { label: 'FR (Req-SPS)', key: 'sps.FR', kind: 'pct' },
  { label: 'EFR (Req-SPS)', key: 'sps.EFR', kind: 'pct' },
  { label: 'Response time < 800 ms', key: 'buckets.lt800', kind: 'pct' },
  { label: '800 ms ≤ response time < 1200 ms', key: 'buckets.b800_1200', kind: 'pct' },
  { label: '1200 ms ≤ response time', key: 'buckets.ge1200', kind: 'pct' },
  { label: 'Application Performance Index (Apdex)', key: 'apdex', kind: 'num2' },
  { label: 'System Throughput (ST, OK/s)', key: 'throughput', kind: 'num1' },
  { label: 'SPS throughput at peak (OK/s)', key: 'sps.throughputHold', kind: 'num2' },
  { label: 'p50 / p95 / p99 (ms)', key: 'p50|p95|p99', kind: 'ms' },
  { label: 'SPS p50 / p95 / p99 (ms)', key: 'sps.p50|sps.p95|sps.p99', kind: 'ms' },
  { label: 'Unexpected statuses', key: 'unexpected', kind: 'int' },
];

function columnLabel(a: Aggregated, all: Aggregated[]): string {
  const profiles = new Set(all.map((x) => x.meta.profileName));
  let label = a.meta.variant;
  if (profiles.size > 1) label += ` [${a.meta.profileName}]`;
  if (a.meta.tracing) label += ' (tracing)';
  return label;
}

function ratioRow(results: Aggregated[], baseline: Baseline | null): { label: string; cells: string[] } {
  return {
    label: 'SPS throughput / grader-only baseline',
    cells: results.map((a) => {
      const sps = a.paper['sps.throughputHold'];
      if (!baseline) return 'no baseline';
      if (!sps) return 'n/a';
      return `${((100 * sps.mean) / baseline.best.gradingsPerS).toFixed(1)}%`;
    }),
  };
}

function validityRow(results: Aggregated[]): { label: string; cells: string[] } {
  return { label: 'Runs VALID', cells: results.map((a) => `${a.validRuns}/${a.runs}${a.valid ? '' : ' INVALID'}`) };
}

function availabilityTable(id: string, title: string, results: Aggregated[], all: Aggregated[], baseline: Baseline | null): Table {
  const rows = AVAILABILITY_ROWS.map((r) => ({
    label: r.label,
    cells: results.map((a) =>
      r.key.includes('|')
        ? r.key.split('|').map((k) => cell(a.paper[k], 'int')).join(' / ')
        : cell(a.paper[r.key], r.kind),
    ),
  }));
  rows.push(ratioRow(results, baseline), validityRow(results));
  const notes = [
    `Mean over runs ± half-width of the 95% confidence interval (Student t). Apdex T = ${results[0]?.meta.apdexTMs ?? 800} ms, tolerating ≤ 4T, over successful requests.`,
  ];
  if (baseline) notes.push(`Grader-only baseline: ${baseline.best.gradingsPerS.toFixed(2)} gradings/s (${baseline.best.label}; ${baseline.file}).`);
  return { id, title, columns: results.map((a) => columnLabel(a, all)), rows, notes };
}

function replicaKey(a: Aggregated): number[] {
  const r = a.meta.replicas;
  return [r.gateway ?? 0, r.exercise ?? 0, r.leftover ?? 0, r.monolith ?? 0];
}

function byReplicas(a: Aggregated, b: Aggregated): number {
  const ka = replicaKey(a);
  const kb = replicaKey(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
  return a.meta.variant.localeCompare(b.meta.variant);
}

/** Naked MON first (no load balancer), then MON×N by replicas. */
function monolithOrder(a: Aggregated, b: Aggregated): number {
  const naked = (x: Aggregated): number => (x.meta.variant.startsWith('naked') ? 0 : 1);
  return naked(a) - naked(b) || (a.meta.replicas.monolith ?? 0) - (b.meta.replicas.monolith ?? 0) || a.meta.variant.localeCompare(b.meta.variant);
}

export function tableI(all: Aggregated[], baseline: Baseline | null): Table | null {
  const mon = all.filter((a) => a.meta.topology === 'monolith').sort(monolithOrder);
  const msa11 = all.filter((a) => a.meta.variant === 'msa-1-1');
  if (mon.length + msa11.length === 0) return null;
  return availabilityTable('table-1', 'Table I — Availability and performance: monolith configurations vs MSA-1-1', [...mon, ...msa11], all, baseline);
}

export function tableII(all: Aggregated[], baseline: Baseline | null): Table | null {
  const msa = all.filter((a) => a.meta.topology === 'msa').sort(byReplicas);
  if (msa.length === 0) return null;
  return availabilityTable('table-2', 'Table II — Availability and performance: MSA configurations (X-Y: X Leftover, Y Exercise; G-X-Y: G gateways)', msa, all, baseline);
}

/** Every configuration: monoliths (naked first), then MSA by replicas. */
function monolithsThenMsa(all: Aggregated[]): Aggregated[] {
  return [...all.filter((a) => a.meta.topology === 'monolith').sort(monolithOrder), ...all.filter((a) => a.meta.topology !== 'monolith').sort(byReplicas)];
}

export function tableIII(all: Aggregated[], energyNote: string): Table | null {
  if (all.length === 0) return null;
  const ordered = monolithsThenMsa(all);
  const rows: { label: string; cells: string[] }[] = [
    { label: 'Memory usage (mean − min, % of machine memory)', cells: ordered.map((a) => cell(a.resources.variantMemShare, 'pct')) },
    { label: 'Memory (mean RSS of the system under test)', cells: ordered.map((a) => cell(a.resources.variantRssMeanBytes, 'mb')) },
    { label: 'Memory (peak RSS)', cells: ordered.map((a) => cell(a.resources.variantRssMaxBytes, 'mb')) },
    { label: 'CPU per successful request, machine minus k6 (ms)', cells: ordered.map((a) => cellScaled(a.resources.machineCpuSPerOk, 1000)) },
    { label: 'CPU per successful request, variant processes (ms)', cells: ordered.map((a) => cellScaled(a.resources.cpuSPerOk, 1000)) },
    { label: 'CPU-seconds per run (variant processes)', cells: ordered.map((a) => cell(a.resources.variantCpuS, 'num1')) },
    { label: 'k6 CPU max (% of one core)', cells: ordered.map((a) => cell(a.resources.k6CpuMaxPct, 'num1')) },
    { label: 'Energy usage (Wh per run)', cells: ordered.map((a) => (a.meta.machine.energy === 'absent' ? 'absent' : cell(a.resources.energyWh, 'num3'))) },
  ];
  return {
    id: 'table-3',
    title: 'Table III — Memory, CPU and energy usage',
    columns: ordered.map((a) => columnLabel(a, all)),
    rows,
    notes: [
      'Memory as the paper defines it: mean minus minimum of the summed RSS of every process of the configuration (services, HAProxy, database and other servers with their children), as a share of the machine memory.',
      'CPU per request, machine minus k6: every core\'s busy time during the run minus k6\'s own, over OK — it includes the sandboxed graders (bwrap\'s pid namespace hides their time from per-process accounting) and any unrelated activity on the machine. Variant processes: services, HAProxy and servers with their descendants (reaped children such as postgres backends included; sandboxed graders only while alive at a sample).',
      energyNote,
    ],
  };
}

const STEPS = ['login', 'verify', 'sps', 'logout', 'verify_out'];

/** Where the latency tail lives per request of scenario R (the OPTIONS preflights are omitted). */
export function requestTypeTable(all: Aggregated[]): Table | null {
  const ordered = monolithsThenMsa(all);
  if (!ordered.some((a) => a.paper['perType.login.p50'])) return null;
  const rows = STEPS.flatMap((step) => [
    {
      label: `${step}: OK p50 / p95 / p99 / max (ms)`,
      cells: ordered.map((a) => means(a, `perType.${step}`, ['p50', 'p95', 'p99', 'max'])),
    },
    { label: `${step}: KO`, cells: ordered.map((a) => cell(a.paper[`perType.${step}.ko`], 'int')) },
  ]);
  rows.push(
    {
      label: 'time to feedback (SPS → grade, reply or polling): p50 / p95 / max (ms)',
      cells: ordered.map((a) => means(a, 'feedback', ['p50', 'p95', 'max'])),
    },
    {
      label: 'feedback by reply / by polling / none within the timeout',
      cells: ordered.map((a) => means(a, 'feedback', ['reply', 'polled', 'missing'])),
    },
  );
  return {
    id: 'table-requests',
    title: 'Response time and failures by request type',
    columns: ordered.map((a) => columnLabel(a, all)),
    rows,
    notes: [
      'Successful responses only for the percentiles; KO = 502/503/504, transport errors and 60 s timeouts. Mean over runs.',
      'Time to feedback: a 202 (async reply, or a sync reply that timed out) is followed by polling GET /api/exercise-production/:ep_id (1 s, then doubling up to 8 s) until the production is final, within the 60 s request timeout; polls are extra requests outside N.',
    ],
  };
}

/** "a / b / c": means (rounded) of several metrics under one prefix, without CIs to stay readable. */
function means(a: Aggregated, prefix: string, keys: string[]): string {
  return keys.map((k) => a.paper[`${prefix}.${k}`]).map((e) => (e ? fmt(e.mean, 'int') : 'n/a')).join(' / ');
}

function cellScaled(e: Estimate | undefined, factor: number): string {
  if (!e) return 'n/a';
  return cell({ ...e, mean: e.mean * factor, ci95: e.ci95 === null ? null : e.ci95 * factor, sd: e.sd, min: e.min * factor, max: e.max * factor }, 'num2');
}

export function allTables(all: Aggregated[], baseline: Baseline | null): Table[] {
  const energy = all.some((a) => a.meta.machine.energy !== 'absent')
    ? 'Energy from RAPL package counters (the paper used a physical power meter).'
    : 'Energy: absent — this machine exposes no RAPL counters (/sys/class/powercap) and has no power meter.';
  return [tableI(all, baseline), tableII(all, baseline), tableIII(all, energy), requestTypeTable(all)].filter((t): t is Table => t !== null);
}
