// The resilience table across presets: rows = faults, columns = variants, each
// cell the runs' requests lost (must be 0), EFR during the fault and recovery time, read from the
// faults.json files of `bench faults` runs. Markdown and HTML beside each other, as the other reports.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lostOf, resilienceMatrix, type ResilienceCell, MIN_RUNS, PAIR_VERDICT_COLUMNS, pairVerdictCells, pairVerdicts } from '@shellgrade/console-contract';
import { escapeHtml, tableHtml } from '../report/html';
import { tableMarkdown } from '../report/markdown';
import type { Table } from '../report/tables';
import type { FaultResult } from './analyse';

/** Every fault run of the faults.json files under `dirs` (a results folder's `*-faults` folders, or those folders). */
export function readFaultRuns(dirs: string[]): FaultResult[] {
  const files = dirs.flatMap((d) => {
    if (existsSync(join(d, 'faults.json'))) return [join(d, 'faults.json')];
    return existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('-faults')).map((n) => join(d, n, 'faults.json')).filter(existsSync) : [];
  });
  const runs = files.flatMap((f) => {
    const json = JSON.parse(readFileSync(f, 'utf8')) as { results?: FaultResult[] } | FaultResult[];
    // The first slice wrote a bare array.
    return Array.isArray(json) ? json : (json.results ?? []);
  });
  // A folder named twice (itself and its results folder) counts once.
  return [...new Map(runs.map((r) => [r.runId, r])).values()];
}

type CellRun = ResilienceCell['runs'][number];

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)} %`);

function recoveryText(r: CellRun): string {
  return r.recovered ? `${((r.recoveryMs ?? 0) / 1000).toFixed(1)} s` : 'not recovered';
}

/** One cell: every run's figures, in run order ("lost 0 · EFR 3.0 % · rec 2.0 s"; runs joined by " / "). */
function resilienceCell(runs: CellRun[]): string {
  if (runs.length === 0) return '–';
  const lost = runs.map((r) => (r.lost === null ? 'n/a' : String(r.lost))).join('/');
  return `lost ${lost} · EFR ${runs.map((r) => pct(r.efrDuring)).join('/')} · rec ${runs.map(recoveryText).join('/')}`;
}

/** The console's resilience matrix (console-contract: the cell figures are computed there once), as a table. */
export function resilienceTable(runs: FaultResult[], variants?: string[]): Table {
  const matrix = resilienceMatrix([{ id: '', results: runs }]);
  const columns = variants ?? matrix.variants;
  const cellRuns = (row: number, variant: string) => matrix.cells[row][matrix.variants.indexOf(variant)]?.runs ?? [];
  const lossy = runs.filter((r) => lostOf(r) !== 0);
  return {
    id: 'resilience',
    title: 'Resilience: requests lost or duplicated, EFR during the fault, recovery after the undo',
    columns,
    rows: matrix.faults.map((f, i) => ({ label: f, cells: columns.map((v) => resilienceCell(cellRuns(i, v))) })),
    notes: [
      'lost: accepted but not persisted final, plus duplicated, from what the client was told (must be 0); n/a: no audit.',
      'EFR during: error and failure rate in the fault window; rec: p95 back within +10 % of the steady window, after the undo.',
      lossy.length ? `NOT zero-loss: ${lossy.map((r) => `${r.fault} on ${r.variant} (results/${r.runId})`).join(', ')}` : `zero-loss in all ${runs.length} runs.`,
    ],
  };
}

/** The architecture verdicts: per fault, every pair of variants whose cells have MIN_RUNS runs or more. */
export function pairVerdictTable(runs: FaultResult[], variants?: string[]): Table {
  const matrix = resilienceMatrix([{ id: '', results: runs }]);
  const verdicts = pairVerdicts(matrix, variants ?? matrix.variants);
  return {
    id: 'resilience-pairs',
    title: `Architecture verdicts: B − A per fault, over the runs of cells with ${MIN_RUNS} runs or more`,
    columns: ['A vs B', ...PAIR_VERDICT_COLUMNS],
    rows: verdicts.map((v) => ({ label: v.fault, cells: [`${v.a} vs ${v.b}`, ...pairVerdictCells(v)] })),
    notes: [
      "Welch's t interval over runs (95 %), unequal variances; a reading names B lower or higher when the interval excludes 0, else no significant difference.",
      "Rank test: Mann–Whitney U (two-sided) with Cliff's δ = P(B > A) − P(B < A); a run not recovered within the window ranks above every recovered run.",
      verdicts.length ? `${verdicts.length} comparisons.` : `no cell pair has ${MIN_RUNS} runs or more on both sides.`,
    ],
  };
}

export function writeResilienceReport(dir: string, runs: FaultResult[], variants?: string[]): { markdown: string; html: string } {
  const tables = [resilienceTable(runs, variants), pairVerdictTable(runs, variants)];
  const markdown = join(dir, 'resilience.md');
  const html = join(dir, 'resilience.html');
  writeFileSync(markdown, `# Resilience\n\n${tables.map(tableMarkdown).join('\n')}`);
  writeFileSync(html, `<!doctype html><meta charset="utf-8"><title>${escapeHtml(tables[0].title)}</title>\n<style>table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;font:13px sans-serif}</style>\n${tables.map(tableHtml).join('\n')}\n`);
  return { markdown, html };
}
