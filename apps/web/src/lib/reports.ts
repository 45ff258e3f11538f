/**
 * Formats of the Findings and Faults pages: the figures as the harness's own reports print them
 * (benchmarks/src/findings/report.ts, benchmarks/src/faults/resilience.ts), and the links to the
 * files a verdict or a cell rests on (served by GET /ops/runs/<id>/<file>, /ops/findings/<id>/<file>).
 */
import type { FaultRun, FindingDifference, FindingPart, ResilienceCell, RunLink } from '@shellgrade/console-contract';

/** The unit of each findings metric (benchmarks/src/findings/metrics.ts METRICS): '' is a fraction shown in percent. */
const UNITS: Record<string, string> = { efr: '', p95: 'ms', spsP95: 'ms', throughput: '/s', apdex: 'index', cpuPerIteration: 's', memMiB: 'MiB', energyWh: 'Wh' };

const MINUS = '−';
const signed = (text: string, v: number) => (v > 0 ? `+${text}` : v < 0 ? `${MINUS}${text.replace(/^-/, '')}` : text);

/** One figure of a metric: "518 ms", "61.5 %", "0.912". */
export function formatMetric(v: number | null | undefined, metric: string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'n/a';
  const unit = UNITS[metric];
  if (unit === '') return `${(100 * v).toFixed(1)} %`;
  const n = Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3);
  return unit === undefined || unit === 'index' ? n : `${n} ${unit}`;
}

/** A difference B − A: "+1250 ms [+900 ms, +1600 ms]", in points for a fraction, "(no CI)" without an interval. */
export function formatDifference(d: FindingDifference | null, metric: string): string {
  if (!d || d.diff === null) return 'n/a';
  const unit = UNITS[metric];
  const one = (v: number) => {
    if (Math.abs(v) < 1e-9) v = 0;
    if (unit === '') return signed(`${(100 * v).toFixed(1)} pt`, v);
    const n = Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3);
    return signed(unit === undefined || unit === 'index' ? n : `${n} ${unit}`, v);
  };
  return `${one(d.diff)} ${d.lo === null || d.hi === null ? '(no CI)' : `[${one(d.lo)}, ${one(d.hi)}]`}`;
}

/** Mann–Whitney and Cliff's δ of a part: "p = 0.010, δ = −0.90 (large)". */
export function formatRank(p: FindingPart): string {
  const r = p.comparison?.rank;
  return r ? `p = ${r.p.toFixed(3)}, δ = ${signed(Math.abs(r.cliffsDelta).toFixed(2), r.cliffsDelta)} (${r.magnitude})` : 'n/a';
}

export function formatTost(p: FindingPart): string {
  const t = p.comparison?.tost;
  return t ? `±${t.margin.toPrecision(3)}: p = ${t.p.toPrecision(2)}${t.equivalent ? ', equivalent' : ''}` : 'n/a';
}

export const percent = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : `${(100 * v).toFixed(1)} %`);
export const seconds = (ms: number | null | undefined): string => (ms === null || ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);

/** A fault run's recovery as the resilience table prints it: "2.0 s" after the undo, or "not recovered". */
export const recoveryText = (r: Pick<FaultRun['recovery'], 'recovered' | 'sinceUndoMs'>): string => (r.recovered ? seconds(r.sinceUndoMs ?? 0) : 'not recovered');

/** One run of a resilience cell: "lost 0 · EFR 3.0 % · rec 2.0 s". */
export function cellRunText(r: ResilienceCell['runs'][number]): string {
  return `lost ${r.lost === null ? 'n/a' : r.lost} · EFR ${percent(r.efrDuring)} · rec ${r.recoveryMs === null ? 'not recovered' : seconds(r.recoveryMs)}`;
}

const path = (file: string) => file.split('/').map(encodeURIComponent).join('/');
export const runFileHref = (runId: string, file: string): string => `/ops/runs/${encodeURIComponent(runId)}/${path(file)}`;
/** Served where the results folder's layout holds (/ops/runs/findings/<id>/): findings.html's relative links to its runs work there. */
export const findingsFileHref = (id: string, file: string): string => `/ops/runs/findings/${encodeURIComponent(id)}/${path(file)}`;
export const traceHref = (traceId: string): string => `/console/trace/${encodeURIComponent(traceId)}`;

/** The links of one run: its report, its breakdown, its traces (the trace view is the app's own page). */
export function runLinkItems(link: RunLink | undefined, runId: string): { href: string; label: string; inApp: boolean }[] {
  if (!link?.present) return [];
  return [
    ...(link.report ? [{ href: runFileHref(runId, link.report), label: link.report === 'report/report.html' ? 'report' : link.report.startsWith('k6-dashboard') ? 'k6 dashboard' : link.report, inApp: false }] : []),
    ...(link.breakdown ? [{ href: runFileHref(runId, link.breakdown), label: 'trace breakdown', inApp: false }] : []),
    ...link.traces.map((t) => ({ href: traceHref(t.traceId), label: `trace: ${t.label}`, inApp: true })),
  ];
}
