/**
 * What the Findings and Faults endpoints share (ops-findings.ts, ops-faults.ts): where the results
 * folder is, the link to a benchmark run a verdict or a cell rests on (its report, its trace
 * breakdown and the traces to open in the console's trace view), reading a JSON file through a
 * zod schema with a reason that names no host path, and serving one report file of a folder
 * under the results folder without ever leaving it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import { RUN_ID, type RunLink } from '@shellgrade/console-contract';
import { z } from 'zod';
import { problem, sendProblem } from '@shellgrade/http';
import type { OpsAdminOptions } from './ops-admin';
import type { BenchCli } from './ops-bench-cli';
import { REPORT_TYPES, SEGMENT, sendContainedFile } from './contained-file';

export interface OpsReportsOptions extends OpsAdminOptions {
  /** The benchmark results folder (as GET /ops/runs reads it). */
  resultsDir?: string;
  /** Its results folder when no resultsDir is given. */
  bench?: BenchCli;
}

export const reportsResultsDir = (opts: OpsReportsOptions): string | undefined => opts.resultsDir ?? opts.bench?.resultsDir;

const TRACE_ID = /^[0-9a-f]{1,32}$/i;

/** The reason a file does not match its schema: the first issue's place in the JSON and zod's message. */
export function schemaReason(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'does not match';
  return `${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`;
}

/** The file parsed and validated, or why not (in words that name the file, never its host path). */
export function readJsonFile<T>(file: string, name: string, schema: z.ZodType<T>): { data: T } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ? `${name} cannot be read` : `${name} is not JSON` };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? { data: parsed.data } : { error: `${name} does not match its format: ${schemaReason(parsed.error)}` };
}

const readOptional = <T>(file: string, schema: z.ZodType<T>): T | undefined => {
  if (!existsSync(file)) return undefined;
  const r = readJsonFile(file, '', schema);
  return 'data' in r ? r.data : undefined;
};

const metaSchema = z.object({ variant: z.string() });
const aggregatedSchema = z.object({ meta: metaSchema });
const sharesSchema = z.object({ exemplarTraceId: z.string().optional(), latencyMs: z.number().optional() });
/** traces/' breakdown.json (traces/src/report/breakdown-file.ts): the exemplar of each variant's p50 and p99. */
const breakdownSchema = z.object({ variants: z.array(z.object({ variant: z.string().optional(), shares: z.object({ p50: sharesSchema, p99: sharesSchema }).optional() })) });
/** A latency fault run's attribution-windows.json (benchmarks/src/faults/run-faults.ts): the SPS traces of the fault window. */
const windowsSchema = z.object({ during: z.array(z.object({ traceId: z.string(), totalMs: z.number() })) });

/** Where to open a benchmark run: its report, its breakdown, its traces (none for a run id that is no run folder). */
export function runLink(resultsDir: string, id: string): RunLink {
  const dir = join(resultsDir, id);
  const none: RunLink = { id, present: false, variant: null, report: null, breakdown: null, traces: [] };
  if (!RUN_ID.test(id) || !existsSync(dir) || !statSync(dir).isDirectory()) return none;
  const names = readdirSync(dir);
  const variant = readOptional(join(dir, 'meta.json'), metaSchema)?.variant ?? readOptional(join(dir, 'aggregated.json'), aggregatedSchema)?.meta.variant ?? null;
  const dashboard = names.filter((n) => /^k6-dashboard-.*\.html$/.test(n)).sort()[0];
  const report = existsSync(join(dir, 'report', 'report.html')) ? 'report/report.html' : (dashboard ?? ['aggregated.json', 'meta.json'].find((n) => names.includes(n)) ?? null);
  const traces: RunLink['traces'] = [];
  const breakdown = readOptional(join(dir, 'breakdown.json'), breakdownSchema);
  for (const v of breakdown?.variants ?? []) {
    for (const q of ['p50', 'p99'] as const) {
      const s = v.shares?.[q];
      if (s?.exemplarTraceId && TRACE_ID.test(s.exemplarTraceId)) traces.push({ label: `${q} exemplar${s.latencyMs === undefined ? '' : ` (${Math.round(s.latencyMs)} ms)`}`, traceId: s.exemplarTraceId });
    }
  }
  const windows = readOptional(join(dir, 'attribution-windows.json'), windowsSchema);
  const slowest = windows?.during.filter((t) => TRACE_ID.test(t.traceId)).reduce<{ traceId: string; totalMs: number } | undefined>((a, t) => (a && a.totalMs >= t.totalMs ? a : t), undefined);
  if (slowest) traces.push({ label: `slowest during the fault (${Math.round(slowest.totalMs)} ms)`, traceId: slowest.traceId });
  return { id, present: true, variant, report, breakdown: names.includes('breakdown.html') ? 'breakdown.html' : null, traces };
}

export const runLinks = (resultsDir: string, ids: Iterable<string>): Record<string, RunLink> => Object.fromEntries([...new Set(ids)].sort().map((id) => [id, runLink(resultsDir, id)]));

/** The report files of a folder (html, md), its sub-folders' to `depth` levels, relative to it. */
export function reportFilesOf(dir: string, depth = 2, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!SEGMENT.test(e.name)) continue;
    if (e.isFile() && /\.(html|md)$/.test(e.name)) out.push(`${prefix}${e.name}`);
    else if (e.isDirectory() && depth > 0) out.push(...reportFilesOf(join(dir, e.name), depth - 1, `${prefix}${e.name}/`));
  }
  return out.sort();
}

/** One file (html, md, json) of `folder`, whose real path must stay inside `root`; 404 problem+json otherwise. */
export function serveReportFile(res: Response, root: string, folder: string, file: string[]): void {
  if (file.length > 3 || !sendContainedFile(res, root, folder, file, REPORT_TYPES)) sendProblem(res, problem(404, 'no such report file'));
}

/** The path after `prefix`, decoded segment by segment; null when it does not decode. */
export function segmentsAfter(path: string, prefix: string): string[] | null {
  const rest = path.slice(prefix.length).replace(/^\//, '');
  if (rest === '') return [];
  try {
    return rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}
