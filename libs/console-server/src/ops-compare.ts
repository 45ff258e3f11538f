/**
 * GET /ops/compare?runs=<id>,<id>[,...]   2–5 recorded runs side by side (admins only, ops-admin.ts)
 *
 * The tables are `bench compare`'s, computed by the harness itself (benchmarks/src/compare):
 * the first run is the baseline and each other run is compared with it — per request type
 * p50/p95/p99, throughput, KO share, CPU per iteration and memory, each difference B − A with
 * its 95% Welch interval and whether it is significant, and each host's speed probe with a
 * warning when two hosts differ. Each pair is one `npm run bench -- compare A B --out <tmp>`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { RUN_ID, type Comparison, type NWayComparison } from '@shellgrade/console-contract';
import { admitAdmin, type OpsAdminOptions } from './ops-admin';
import { runBenchCli, shellCommand, type BenchCli } from './ops-bench-cli';
import { problem, sendProblem } from '@shellgrade/http';

export interface OpsCompareOptions extends OpsAdminOptions {
  bench?: BenchCli;
}

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 5;

/** The run ids asked for, or why they cannot be compared. */
export function comparedRuns(query: unknown, resultsDir: string): { runs: string[] } | { status: number; detail: string } {
  const runs = typeof query === 'string' ? query.split(',').filter(Boolean) : [];
  if (runs.length < MIN_COMPARED || runs.length > MAX_COMPARED) return { status: 400, detail: `compare ${MIN_COMPARED} to ${MAX_COMPARED} runs (runs=<id>,<id>,...); got ${runs.length}` };
  if (new Set(runs).size !== runs.length) return { status: 400, detail: 'a run is named twice' };
  const bad = runs.find((r) => !RUN_ID.test(r));
  if (bad) return { status: 400, detail: `"${bad}" is not a run id` };
  const missing = runs.find((r) => !existsSync(join(resultsDir, r, 'aggregated.json')));
  if (missing) return { status: 404, detail: `no finished run "${missing}" in the results folder` };
  return { runs };
}

export async function serveOpsCompare(req: Request, res: Response, opts: OpsCompareOptions): Promise<void> {
  if (!(await admitAdmin(req, res, opts))) return;
  res.setHeader('Cache-Control', 'no-store');
  if (!opts.bench) return sendProblem(res, problem(404, 'this entry point has no benchmark harness'));
  const asked = comparedRuns(req.query.runs, opts.bench.resultsDir);
  if ('status' in asked) return sendProblem(res, problem(asked.status, asked.detail));
  try {
    res.json(await compareRuns(opts.bench, asked.runs));
  } catch (error) {
    sendProblem(res, problem(500, `bench compare failed: ${(error as Error).message}`));
  }
}

/** Baseline first; each other run through its own `bench compare` (they run side by side). */
export async function compareRuns(bench: BenchCli, runs: string[]): Promise<NWayComparison> {
  const [baseline, ...others] = runs as [string, ...string[]];
  const out = mkdtempSync(join(tmpdir(), 'sg-console-compare-'));
  try {
    const argsOf = (other: string, i: number) => ['compare', baseline, other, '--out', join(out, String(i))];
    const pairs = await Promise.all(
      others.map(async (other, i) => {
        await runBenchCli(bench, argsOf(other, i));
        return JSON.parse(readFileSync(join(out, String(i), 'compare.json'), 'utf8')) as Comparison;
      }),
    );
    return { baseline, runs, commands: others.map((o) => shellCommand(['compare', baseline, o])), pairs };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
