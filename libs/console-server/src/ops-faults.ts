/**
 * The fault runs of `npm run bench -- faults` in the console (admins only, ops-admin.ts):
 *
 *   GET /ops/faults          the faults folders (results/<stamp>-<variant>-faults/) and the
 *                            resilience matrix over all of them (`bench faults-table`: rows faults,
 *                            columns variants, each cell's runs with requests lost, EFR during the
 *                            fault and recovery), with a link for every run (report, traces)
 *   GET /ops/faults/<id>     one folder's faults.json: every window's figures, recovery, audit,
 *                            crashes and the latency faults' attribution
 *
 * The folder's own files (faults.md) are served by GET /ops/runs/<id>/<file> (ops-results.ts):
 * its name is a run id. faults.json is read through a zod schema of the contract's FaultRun; the
 * first slice's bare array is read too (as resilience.ts readFaultRuns does).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { faultRunSchema, lostOf, pairVerdicts, resilienceMatrix, RUN_ID, type FaultRun, type FaultsList, type FaultsReport, type FaultsSummary } from '@shellgrade/console-contract';
import { z } from 'zod';
import { admitAdmin } from './ops-admin';
import { readJsonFile, reportFilesOf, reportsResultsDir, runLinks, segmentsAfter, type OpsReportsOptions } from './ops-findings-files';
import { problem, sendProblem } from '@shellgrade/http';

export type OpsFaultsOptions = OpsReportsOptions;

export const FAULTS_FILE = 'faults.json';
export const isFaultsId = (id: string): boolean => RUN_ID.test(id) && id.endsWith('-faults');

const num = z.number().nullable();
const attributionSchema = z.object({ named: z.number(), of: z.number(), share: num });
/** faults.json (benchmarks/src/faults/report.ts faultsJson), or the first slice's bare array of runs. */
export const faultsFileSchema = z.union([
  z.object({ schema: z.literal('shellgrade.faults/1').optional(), attribution: attributionSchema.nullable().optional(), results: z.array(faultRunSchema) }),
  z.array(faultRunSchema).transform((results) => ({ attribution: null, results })),
]);

export const isFaultsPath = (path: string): boolean => path === '/ops/faults' || path.startsWith('/ops/faults/');

export async function serveOpsFaults(req: Request, res: Response, opts: OpsFaultsOptions): Promise<void> {
  if (!(await admitAdmin(req, res, opts))) return;
  res.setHeader('Cache-Control', 'no-store');
  const resultsDir = reportsResultsDir(opts);
  if (!resultsDir) return sendProblem(res, problem(404, 'this entry point has no results folder'));
  const segments = segmentsAfter(req.path, '/ops/faults');
  if (segments === null) return sendProblem(res, problem(400, 'the path does not decode'));
  if (segments.length === 0) return void res.json(listFaults(resultsDir));
  const [id] = segments as [string];
  if (segments.length > 1) return sendProblem(res, problem(404, 'a faults folder\'s files are under /ops/runs/<id>/'));
  if (!isFaultsId(id)) return sendProblem(res, problem(400, `${JSON.stringify(id.slice(0, 80))} is not a faults folder name (<UTC stamp>-<variant>-faults, as bench faults names it)`));
  if (!existsSync(join(resultsDir, id, FAULTS_FILE))) return sendProblem(res, problem(404, `no faults folder "${id}" in the results folder (npm run bench -- faults writes one)`));
  const read = readFaults(resultsDir, id);
  if ('error' in read) return sendProblem(res, problem(422, `faults folder "${id}": ${read.error}`));
  res.json({ ...read.data, runs: runLinks(resultsDir, read.data.results.map((r) => r.runId)) } satisfies FaultsReport);
}

/** One faults folder's faults.json, validated. */
export function readFaults(resultsDir: string, id: string): { data: Omit<FaultsReport, 'runs'> } | { error: string } {
  const read = readJsonFile(join(resultsDir, id, FAULTS_FILE), FAULTS_FILE, faultsFileSchema);
  if ('error' in read) return read;
  return { data: { id, attribution: read.data.attribution ?? null, results: read.data.results, files: reportFilesOf(join(resultsDir, id), 0) } };
}

/** Every faults folder (newest first) and the resilience matrix over their runs; a folder that does not parse is listed with no run. */
export function listFaults(resultsDir: string): FaultsList {
  const folders: (FaultsSummary & { results: FaultRun[] })[] = [];
  if (existsSync(resultsDir)) {
    for (const e of readdirSync(resultsDir, { withFileTypes: true })) {
      if (!e.isDirectory() || !isFaultsId(e.name) || !existsSync(join(resultsDir, e.name, FAULTS_FILE))) continue;
      const read = readFaults(resultsDir, e.name);
      const results = 'error' in read ? [] : read.data.results;
      folders.push({
        id: e.name,
        variants: [...new Set(results.map((r) => r.variant))].sort(),
        faults: [...new Set(results.map((r) => r.fault))].sort(),
        runs: results.length,
        lossy: results.filter((r) => lostOf(r) !== 0).length,
        ...('error' in read ? { error: read.error } : {}),
        results,
      });
    }
  }
  folders.sort((a, b) => b.id.localeCompare(a.id));
  const matrix = resilienceMatrix([...folders].reverse());
  return {
    folders: folders.map(({ results: _results, ...summary }) => summary),
    matrix,
    verdicts: pairVerdicts(matrix),
    runs: runLinks(
      resultsDir,
      folders.flatMap((f) => f.results.map((r) => r.runId)),
    ),
  };
}
