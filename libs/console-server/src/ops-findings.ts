/**
 * The findings of `npm run findings` in the console (admins only, ops-admin.ts):
 *
 *   GET /ops/findings                  the findings folders (results/findings/<id>/), newest first:
 *                                      mode, when, the verdict counts, the report files
 *   GET /ops/findings/<id>             one folder: each claim's verdict, the comparisons behind it
 *                                      (findings.json) and what the run did (findings-runs.json), with a
 *                                      link for every run named (its report, breakdown and traces)
 *   GET /ops/findings/<id>/<file>      one report file of it (findings.html/.md/.json,
 *                                      compare/<x>/compare.html), never outside the results folder
 *   GET /ops/runs/findings/<id>/<file> the same file where the results folder's layout holds
 *                                      (results/findings/<id>/ under /ops/runs/, ops-results.ts): the
 *                                      report's relative links to its runs ("../../<run-id>/",
 *                                      "../../<run-id>/breakdown.html") open them in the console
 *
 * The harness (a tool) is not imported here: the files are read through zod schemas of the
 * contract's types (libs/console-contract reports.ts). A folder name that is no folder name is
 * 400, a folder that is not there 404, a file that does not parse 422: problem+json that names
 * the folder and the file, never a host path.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { findingResultSchema, findingsRunRecordSchema, verdictCounts, type FindingsReport, type FindingsSummary } from '@shellgrade/console-contract';
import { z } from 'zod';
import { admitAdmin } from './ops-admin';
import { readJsonFile, reportFilesOf, reportsResultsDir, runLinks, segmentsAfter, serveReportFile, type OpsReportsOptions } from './ops-findings-files';
import { problem, sendProblem } from '@shellgrade/http';

export type OpsFindingsOptions = OpsReportsOptions;

/** A findings folder's name (run.ts names it by date, --out may name it anything plain). */
export const FINDINGS_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const FINDINGS_FILE = 'findings.json';
export const RECORD_FILE = 'findings-runs.json';

/** findings.json (benchmarks/src/findings/report.ts writeFindingsReport), the parts the console reads. */
export const findingsFileSchema = z.object({
  plan: z.object({ mode: z.string() }),
  record: findingsRunRecordSchema.nullable(),
  cells: z.record(z.string(), z.string()),
  results: z.array(findingResultSchema),
});

/** Where the findings folders sit under /ops/runs/, as results/findings/ sits in the results folder. */
export const MIRRORED_FINDINGS = '/ops/runs/findings';

export const isFindingsPath = (path: string): boolean => path === '/ops/findings' || path.startsWith('/ops/findings/') || path.startsWith(`${MIRRORED_FINDINGS}/`);

export async function serveOpsFindings(req: Request, res: Response, opts: OpsFindingsOptions): Promise<void> {
  if (!(await admitAdmin(req, res, opts))) return;
  res.setHeader('Cache-Control', 'no-store');
  const resultsDir = reportsResultsDir(opts);
  if (!resultsDir) return sendProblem(res, problem(404, 'this entry point has no results folder'));
  const mirrored = req.path.startsWith(`${MIRRORED_FINDINGS}/`);
  const segments = segmentsAfter(req.path, mirrored ? MIRRORED_FINDINGS : '/ops/findings');
  if (segments === null) return sendProblem(res, problem(400, 'the path does not decode'));
  const [id, ...file] = segments;
  // Under /ops/runs/ only the report files: the JSON views stay at /ops/findings.
  if (mirrored && (id === undefined || file.length === 0)) return sendProblem(res, problem(404, 'no such report file'));
  if (id === undefined) return void res.json({ findings: listFindings(resultsDir) });
  if (!FINDINGS_ID.test(id)) return sendProblem(res, problem(400, `${JSON.stringify(id.slice(0, 80))} is not a findings folder name (letters, digits, ".", "_", "-"; a letter or digit first)`));
  const folder = join(resultsDir, 'findings', id);
  if (!existsSync(join(folder, FINDINGS_FILE)) && !existsSync(join(folder, RECORD_FILE))) return sendProblem(res, problem(404, `no findings folder "${id}" in the results folder (npm run findings writes one)`));
  if (file.length) return serveReportFile(res, resultsDir, folder, file);
  const report = readFindings(resultsDir, id);
  if ('error' in report) return sendProblem(res, problem(422, `findings folder "${id}": ${report.error}`));
  res.json(report.data);
}

/** The findings folders, newest first; a folder whose findings.json does not parse is listed with the reason. */
export function listFindings(resultsDir: string): FindingsSummary[] {
  const root = join(resultsDir, 'findings');
  if (!existsSync(root)) return [];
  const out: FindingsSummary[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (!e.isDirectory() || !FINDINGS_ID.test(e.name)) continue;
    const folder = join(root, e.name);
    const hasFindings = existsSync(join(folder, FINDINGS_FILE));
    if (!hasFindings && !existsSync(join(folder, RECORD_FILE))) continue;
    const read = readFindings(resultsDir, e.name, false);
    if ('error' in read) out.push({ id: e.name, mode: null, startedAt: null, endedAt: null, counts: null, files: reportFilesOf(folder), error: read.error });
    else {
      const r = read.data;
      out.push({ id: e.name, mode: r.mode, startedAt: r.record?.startedAt ?? null, endedAt: r.record?.endedAt ?? null, counts: r.results && verdictCounts(r.results), files: r.files });
    }
  }
  return out.sort((a, b) => (b.startedAt ?? b.id).localeCompare(a.startedAt ?? a.id) || b.id.localeCompare(a.id));
}

/** One findings folder as the console shows it (withLinks: each run's link, which reads its folder), or why it cannot be read. */
export function readFindings(resultsDir: string, id: string, withLinks = true): { data: FindingsReport } | { error: string } {
  const folder = join(resultsDir, 'findings', id);
  let findings: z.infer<typeof findingsFileSchema> | null = null;
  if (existsSync(join(folder, FINDINGS_FILE))) {
    const read = readJsonFile(join(folder, FINDINGS_FILE), FINDINGS_FILE, findingsFileSchema);
    if ('error' in read) return read;
    findings = read.data;
  }
  let record = findings?.record ?? null;
  if (!record && existsSync(join(folder, RECORD_FILE))) {
    const read = readJsonFile(join(folder, RECORD_FILE), RECORD_FILE, findingsRunRecordSchema);
    if ('error' in read) return read;
    record = read.data;
  }
  const cells = Object.fromEntries(Object.entries(findings?.cells ?? {}).map(([k, ref]) => [k, ref.split('+').filter(Boolean)]));
  const ids = [
    ...(findings?.results ?? []).flatMap((r) => r.parts.flatMap((p) => [p.a?.runId, p.b?.runId])),
    ...Object.values(cells).flat(),
    ...Object.values(record?.runs ?? {}).flat(),
  ].filter((x): x is string => !!x);
  return {
    data: {
      id,
      mode: findings?.plan.mode ?? record?.mode ?? null,
      record,
      results: findings?.results ?? null,
      cells,
      runs: withLinks ? runLinks(resultsDir, ids) : {},
      files: reportFilesOf(folder),
    },
  };
}
