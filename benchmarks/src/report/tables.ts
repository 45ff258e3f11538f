// Comparison tables in the shapes of paper 000's Tables I–III, as plain data (rendered to
// Markdown and HTML elsewhere). Each cell is the mean over the VALID runs ± the 95% CI
// half-width; a configuration with fewer valid runs than asked shows `n/a (k/n valid)` instead
// (its runs are listed one by one in the runs table). Availability tables use the hold stage;
// the ramp stage has its own table. Definitions: benchmarks/METRICS.md.
import type { Estimate } from '../aggregate';
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

/** Fewer valid runs than asked: no mean is shown, the cell says how many were valid. */
export function shortOfValid(a: Aggregated): string | null {
  const asked = a.runsAsked ?? a.runs;
  return a.validRuns < asked ? `n/a (${a.validRuns}/${asked} valid)` : null;
}

/** A cell of one configuration: its valid-runs mean, or why there is none. */
function valueCell(a: Aggregated, render: () => string): string {
  return shortOfValid(a) ?? render();
}

const HOLD = 'stages.hold.';

const AVAILABILITY_ROWS: RowDef[] = [
  { label: 'N (10 × VUs)', key: 'N', kind: 'int' },
  { label: 'OK', key: 'OK', kind: 'int' },
  { label: 'KO', key: 'KO', kind: 'int' },
  { label: 'Request Acceptance Capability (RAC)', key: 'RAC', kind: 'pct' },
  { label: 'Failure Rate (FR)', key: 'FR', kind: 'pct' },
  { label: 'Effective Failure Rate (EFR = (N − OK)/N, as published: efr_paper)', key: 'efr_paper', kind: 'pct' },
  { label: 'KO / N (ko_rate)', key: 'ko_rate', kind: 'pct' },
  { label: 'FR (Req-SPS)', key: 'sps.FR', kind: 'pct' },
  { label: 'EFR (Req-SPS, efr_paper)', key: 'sps.efr_paper', kind: 'pct' },
  { label: 'ko_rate (Req-SPS)', key: 'sps.ko_rate', kind: 'pct' },
  { label: 'Response time < 800 ms', key: 'buckets.lt800', kind: 'pct' },
  { label: '800 ms ≤ response time < 1200 ms', key: 'buckets.b800_1200', kind: 'pct' },
  { label: '1200 ms ≤ response time', key: 'buckets.ge1200', kind: 'pct' },
  { label: 'Application Performance Index (Apdex)', key: 'apdex', kind: 'num2' },
  { label: 'System Throughput (ST, OK/s)', key: 'throughput', kind: 'num1' },
  { label: 'p50 / p95 / p99 (ms)', key: 'p50|p95|p99', kind: 'ms' },
  { label: 'SPS p50 / p95 / p99 (ms)', key: 'sps.p50|sps.p95|sps.p99', kind: 'ms' },
];

/** "cause n, cause m" from the mean counts of the causes under `prefix` (zeros left out). */
export function causesCell(a: Aggregated, prefix: string): string {
  const parts = Object.entries(a.paper)
    .filter(([k, e]) => k.startsWith(prefix) && e.mean > 0)
    .map(([k, e]) => `${k.slice(prefix.length)} ${fmt(e.mean, e.mean < 10 && !Number.isInteger(e.mean) ? 'num1' : 'int')}`);
  return parts.length ? parts.join(', ') : 'none';
}

function columnLabel(a: Aggregated, all: Aggregated[]): string {
  const profiles = new Set(all.map((x) => x.meta.profileName));
  let label = a.meta.variant;
  if (profiles.size > 1) label += ` [${a.meta.profileName}]`;
  if (a.meta.tracing) label += ' (tracing)';
  if ((a.meta.kdfCost ?? 14) < 14) label += ` (kdf ${a.meta.kdfCost})`;
  return label;
}

function ratioRow(results: Aggregated[]): { label: string; cells: string[] } {
  return {
    label: 'SPS throughput at peak / sandboxed grader-only baseline',
    cells: results.map((a) => {
      const baseline = a.meta.baseline;
      if (!baseline) return 'no baseline';
      return valueCell(a, () => {
        const sps = a.paper['sps.throughputHold'];
        return sps ? `${((100 * sps.mean) / baseline.best.gradingsPerS).toFixed(1)}%` : 'n/a';
      });
    }),
  };
}

function validityRow(results: Aggregated[]): { label: string; cells: string[] } {
  return { label: 'Runs VALID / asked', cells: results.map((a) => `${a.validRuns}/${a.runsAsked ?? a.runs}${a.valid ? '' : ' INVALID'}`) };
}

/** Per configuration, over its runs: the audit and crash lines of every run (valid or not). */
function runFactsRows(results: Aggregated[]): { label: string; cells: string[] }[] {
  const lines = (a: Aggregated, pick: (l: NonNullable<Aggregated['runLines']>[number]) => string): string =>
    (a.runLines ?? []).map((l) => `r${l.run}: ${pick(l)}`).join('; ') || 'n/a';
  return [
    { label: 'Zero-loss audit (per run)', cells: results.map((a) => lines(a, (l) => (l.audit ? l.audit.replace(/ \(.*$/, '') : 'n/a'))) },
    { label: 'Crashes (per run)', cells: results.map((a) => lines(a, (l) => (l.crashes.length ? l.crashes.join(', ') : 'none'))) },
  ];
}

function availabilityTable(id: string, title: string, results: Aggregated[], all: Aggregated[]): Table {
  const rows = AVAILABILITY_ROWS.map((r) => ({
    label: r.label,
    cells: results.map((a) =>
      valueCell(a, () =>
        r.key.includes('|') ? r.key.split('|').map((k) => cell(a.paper[HOLD + k], 'int')).join(' / ') : cell(a.paper[HOLD + r.key], r.kind),
      ),
    ),
  }));
  rows.splice(3, 0, { label: 'KO causes (mean count per run)', cells: results.map((a) => valueCell(a, () => causesCell(a, `${HOLD}koCauses.`))) });
  rows.push(
    { label: 'SPS throughput at peak (OK/s, hold stage)', cells: results.map((a) => valueCell(a, () => cell(a.paper['sps.throughputHold'], 'num2'))) },
    { label: 'Iterations KO by cause (mean per run)', cells: results.map((a) => valueCell(a, () => causesCell(a, `${HOLD}iterations.koCauses.`))) },
    ratioRow(results),
    ...runFactsRows(results),
    validityRow(results),
  );
  const apdexT = results[0]?.meta.apdexTMs ?? 1500;
  const notes = [
    'Hold stage: iterations that started in the sustained stage (the ramp is in its own table). Mean over the VALID runs ± half-width of the 95% confidence interval (Student t); a configuration with fewer valid runs than asked shows n/a (k/n valid) — see the runs table for each run and why it was INVALID.',
    'efr_paper = (N − OK)/N = 1 − RAC·(1 − FR), what paper 000 publishes as EFR; ko_rate = KO/N, what its §IV-C text defines. Every request sent is OK or KO (5xx, unplanned 4xx/other status, timeout, socket error, reply after the timeout); requests never sent (after a failed login, or cut by the end of the test) count in N only.',
    `Apdex as gatling-report computes it: T = ${apdexT} ms, tolerating ≤ 4T, over every request sent (KO frustrated).`,
  ];
  const baselines = [...new Set(results.filter((a) => a.meta.baseline).map((a) => `${a.meta.baseline!.best.gradingsPerS.toFixed(2)} gradings/s (${a.meta.baseline!.best.label})`))];
  if (baselines.length) notes.push(`Sandboxed grader-only baseline copied into each run folder at run time: ${baselines.join('; ')}.`);
  return { id, title, columns: results.map((a) => columnLabel(a, all)), rows, notes };
}

/** The ramp stage apart: saturation while arrivals grow is shown, never mixed into the hold figures. */
export function rampTable(all: Aggregated[]): Table | null {
  const ordered = monolithsThenMsa(all);
  if (!ordered.some((a) => a.paper['stages.ramp.N'])) return null;
  const keys: RowDef[] = [
    { label: 'N (ramp)', key: 'N', kind: 'int' },
    { label: 'efr_paper (ramp)', key: 'efr_paper', kind: 'pct' },
    { label: 'ko_rate (ramp)', key: 'ko_rate', kind: 'pct' },
    { label: 'RAC (ramp)', key: 'RAC', kind: 'pct' },
    { label: 'SPS efr_paper (ramp)', key: 'sps.efr_paper', kind: 'pct' },
    { label: 'Apdex (ramp)', key: 'apdex', kind: 'num2' },
    { label: 'p95 (ramp, ms)', key: 'p95', kind: 'ms' },
  ];
  const rows = keys.map((r) => ({ label: r.label, cells: ordered.map((a) => valueCell(a, () => cell(a.paper[`stages.ramp.${r.key}`], r.kind))) }));
  rows.push({ label: 'KO causes (ramp)', cells: ordered.map((a) => valueCell(a, () => causesCell(a, 'stages.ramp.koCauses.'))) });
  return { id: 'table-ramp', title: 'Ramp stage (arrivals growing 1 → peak), shown apart from the hold-stage tables', columns: ordered.map((a) => columnLabel(a, all)), rows, notes: ['Iterations that started during the ramp. Not used by the validity rules nor the paper-shaped tables.'] };
}

/** Every run of every configuration, valid or not, with its reasons: nothing is averaged away unseen. */
export function runsTable(all: Aggregated[]): Table | null {
  const ordered = monolithsThenMsa(all);
  const rows = ordered.flatMap((a) =>
    (a.runLines ?? []).map((l) => ({
      label: `${columnLabel(a, all)} run ${l.run}`,
      cells: [
        l.valid ? 'VALID' : `INVALID: ${l.reasons.join('; ')}`,
        l.efr_paper === null ? 'n/a' : fmt(l.efr_paper, 'pct'),
        l.ko_rate === null ? 'n/a' : fmt(l.ko_rate, 'pct'),
        l.audit ?? 'n/a',
        l.crashes.length ? l.crashes.join(', ') : 'none',
        l.dashboard ? `${a.meta.runId}/${l.dashboard}` : 'none',
      ],
    })),
  );
  if (rows.length === 0) return null;
  return {
    id: 'table-runs',
    title: 'Runs, one by one (hold stage)',
    columns: ['verdict', 'efr_paper', 'ko_rate', 'zero-loss audit', 'crashes', "k6's HTML report"],
    rows,
    notes: ['A crash of a variant process is recorded and the run counts (with the KOs it caused): runs are never repeated. k6 HTML reports: results/<run id>/k6-dashboard-run-N.html.'],
  };
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

export function tableI(all: Aggregated[]): Table | null {
  const mon = all.filter((a) => a.meta.topology === 'monolith').sort(monolithOrder);
  const msa11 = all.filter((a) => a.meta.variant === 'msa-1-1');
  if (mon.length + msa11.length === 0) return null;
  return availabilityTable('table-1', 'Table I — Availability and performance: monolith configurations vs MSA-1-1', [...mon, ...msa11], all);
}

export function tableII(all: Aggregated[]): Table | null {
  const msa = all.filter((a) => a.meta.topology === 'msa').sort(byReplicas);
  if (msa.length === 0) return null;
  return availabilityTable('table-2', 'Table II — Availability and performance: MSA configurations (X-Y: X Leftover, Y Exercise; G-X-Y: G gateways)', msa, all);
}

/** Every configuration: monoliths (naked first), then MSA by replicas. */
function monolithsThenMsa(all: Aggregated[]): Aggregated[] {
  return [...all.filter((a) => a.meta.topology === 'monolith').sort(monolithOrder), ...all.filter((a) => a.meta.topology !== 'monolith').sort(byReplicas)];
}

export function tableIII(all: Aggregated[], energyNote: string): Table | null {
  if (all.length === 0) return null;
  const ordered = monolithsThenMsa(all);
  const row = (label: string, render: (a: Aggregated) => string): { label: string; cells: string[] } => ({ label, cells: ordered.map((a) => valueCell(a, () => render(a))) });
  const rows: { label: string; cells: string[] }[] = [
    row('Memory usage (mean − min of PSS, % of machine memory)', (a) => cell(a.resources.variantMemShare, 'pct')),
    row('Memory (mean PSS of the system under test)', (a) => cell(a.resources.variantPssMeanBytes, 'mb')),
    row('Memory (peak PSS)', (a) => cell(a.resources.variantPssMaxBytes, 'mb')),
    row('Memory (mean RSS sum, shared pages counted per process: for comparison)', (a) => cell(a.resources.variantRssMeanBytes, 'mb')),
    row('CPU-seconds per run, per process group', (a) => perGroupCpu(a)),
    row('CPU-seconds per run, all variant processes', (a) => cell(a.resources.variantCpuS, 'num1')),
    row('CPU-seconds per run, machine minus client (k6 + harness)', (a) => cell(a.resources.machineCpuSButClient, 'num1')),
    row('CPU residual: (machine − client − processes) / (machine − client)', (a) => cell(a.resources.cpuResidualShare, 'pct')),
    row('CPU residual rate (cores; above 0.15 a run is INVALID: foreign load)', (a) => cell(a.resources.cpuResidualCores, 'num2')),
    row('CPU per successful request, variant processes (ms)', (a) => cellScaled(a.resources.cpuSPerOk, 1000)),
    row('CPU per successful request, machine minus client (ms)', (a) => cellScaled(a.resources.machineCpuSPerOk, 1000)),
    row('CPU per iteration started, variant processes (ms)', (a) => cellScaled(a.resources.cpuSPerIteration, 1000)),
    row('CPU per iteration started, machine minus client (ms)', (a) => cellScaled(a.resources.machineCpuSPerIteration, 1000)),
    row('CPU-seconds per run, harness (sampling, driving k6: client side)', (a) => cell(a.resources.harnessCpuS, 'num1')),
    row('k6 CPU per iteration started (ms; the client apart, its VU initialisation included)', (a) => cellScaled(a.resources.k6CpuSPerIteration, 1000)),
    row('k6 CPU max (% of one core)', (a) => cell(a.resources.k6CpuMaxPct, 'num1')),
    row("Client CPU (k6 + harness), mean share of its cpuset in the hold stage (placement on; INVALID above 70 %)", (a) => cell(a.resources['client.meanShare'], 'pct')),
    row('Energy ESTIMATE: mean power (W, linear CPU model)', (a) => cell(a.resources['energyEstimate.meanW'], 'num2')),
    row('Energy ESTIMATE (Wh per run, linear CPU model)', (a) => cell(a.resources['energyEstimate.wh'], 'num3')),
    { label: 'Energy measured (Wh per run, RAPL)', cells: ordered.map((a) => (a.meta.machine.energy === 'absent' ? 'absent' : valueCell(a, () => cell(a.resources.energyWh, 'num3')))) },
  ];
  const models = [...new Set(ordered.map((a) => a.meta.powerModel).filter((m) => m).map((m) => `${m!.idleWPerCpu} W idle / ${m!.maxWPerCpu} W busy per logical CPU (${m!.source})`))];
  const accounting = [...new Set(ordered.map((a) => a.meta.cpuAccounting ?? 'proc'))].join(', ');
  return {
    id: 'table-3',
    title: 'Table III — Memory, CPU and energy usage',
    columns: ordered.map((a) => columnLabel(a, all)),
    rows,
    notes: [
      'Memory as the paper defines it (mean minus minimum over the run, as a share of the machine memory), of the summed PSS of every process of the configuration (services, HAProxy, servers and their children): shared pages such as PostgreSQL\'s shared buffers are split among their users, not counted once per process as an RSS sum does.',
      `CPU per process group (a pid and its descendants) measured by ${accounting}: with a cgroup, every process a member forks later — sandboxed graders included — is counted. The residual is the machine\'s busy time (/proc/stat) minus k6 minus every group: other users of this shared machine, the harness itself, or a gap in the accounting.`,
      `Energy ESTIMATE, not a measurement (the paper used a power meter): mean W = cores × idle + (busy − idle) × (machine CPU-s minus k6) / run duration, with ${models.join('; ') || 'the default model'} (benchmarks/src/energy.ts; --power-idle-w, --power-max-w).`,
      energyNote,
    ],
  };
}

/** "group 12.3, group 4.5": mean CPU-seconds per run of each process group, largest first. */
function perGroupCpu(a: Aggregated): string {
  const prefix = 'cpuSByGroup.';
  const parts = Object.entries(a.resources)
    .filter(([k]) => k.startsWith(prefix))
    .sort((x, y) => y[1].mean - x[1].mean)
    .map(([k, e]) => `${k.slice(prefix.length)} ${e.mean.toFixed(1)}`);
  return parts.length ? parts.join(', ') : 'n/a';
}

const STEPS = ['login', 'verify', 'sps', 'logout', 'verify_out'];

/** Where the latency tail lives per request of scenario R (the OPTIONS preflights are omitted). */
export function requestTypeTable(all: Aggregated[]): Table | null {
  const ordered = monolithsThenMsa(all);
  if (!ordered.some((a) => a.paper[`${HOLD}perType.login.p50`])) return null;
  const rows = STEPS.flatMap((step) => [
    {
      label: `${step}: OK p50 / p95 / p99 / max (ms)`,
      cells: ordered.map((a) => means(a, `${HOLD}perType.${step}`, ['p50', 'p95', 'p99', 'max'])),
    },
    { label: `${step}: KO`, cells: ordered.map((a) => cell(a.paper[`${HOLD}perType.${step}.ko`], 'int')) },
  ]);
  rows.push(
    {
      label: 'time to feedback (SPS → grade, reply or polling): p50 / p95 / max (ms)',
      cells: ordered.map((a) => means(a, `${HOLD}feedback`, ['p50', 'p95', 'max'])),
    },
    {
      label: 'feedback by reply / by polling / none within the timeout',
      cells: ordered.map((a) => means(a, `${HOLD}feedback`, ['reply', 'polled', 'missing'])),
    },
  );
  if (ordered.some((a) => (a.paper[`${HOLD}logins.refused`]?.mean ?? 0) > 0)) {
    rows.push({
      label: 'login refused with 503 + Retry-After, waited out and sent again / p95 of the wait asked (s)',
      cells: ordered.map((a) => means(a, `${HOLD}logins`, ['refused', 'retryWaitP95S'])),
    });
  }
  if (ordered.some((a) => (a.paper[`${HOLD}feedback.refused`]?.mean ?? 0) > 0)) {
    rows.push({
      label: 'SPS refused with 503 + Retry-After, waited out and resubmitted / p95 of the wait asked (s)',
      cells: ordered.map((a) => means(a, `${HOLD}feedback`, ['refused', 'retryWaitP95S'])),
    });
  }
  return {
    id: 'table-requests',
    title: 'Response time and failures by request type',
    columns: ordered.map((a) => columnLabel(a, all)),
    rows,
    notes: [
      'Hold stage, valid runs. Successful responses only for the percentiles; KO = any request not answered as planned (causes in Tables I/II). Mean over runs.',
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

export function allTables(all: Aggregated[]): Table[] {
  const energy = all.some((a) => a.meta.machine.energy !== 'absent')
    ? 'Energy measured: RAPL package counters (the paper used a physical power meter).'
    : 'Energy measured: absent — this machine exposes no RAPL counters (/sys/class/powercap) and has no power meter; only the estimate above.';
  return [tableI(all), tableII(all), rampTable(all), tableIII(all, energy), requestTypeTable(all), runsTable(all)].filter((t): t is Table => t !== null);
}
