/**
 * GET /ops/trend?preset=<p>[&last=<n>][&profile=<q>]   one preset's last tests over time (admins only, ops-admin.ts)
 *
 * Read by the harness itself, as the compare page is: `npm run bench -- trend --variant <preset> --json`
 * (benchmarks/src/compare/trend.ts: the run records `bench compare` reads, its metrics) — per
 * test its date, profile, host speed probe, throughput, SPS p50/p95/p99, KO share, CPU per
 * iteration and validity, the hosts of another speed than the median probed one flagged. A test
 * is a point when its manifest says a plain `bench run`/`matrix`/`main` made it, whatever its
 * folder is called (back-to-back's b2b-… tests included); calibrations and fault runs are not. The
 * answer is checked against the contract's shape (Trend) before it is served: a harness that
 * drifted from it is a 500 that says where, never a page that reads undefined.
 */
import type { Request, Response } from 'express';
import { trendSchema, type Trend } from '@shellgrade/console-contract';
import { admitAdmin, type OpsAdminOptions } from './ops-admin';
import { runBenchCli, type BenchCli } from './ops-bench-cli';
import { schemaReason } from './ops-findings-files';
import { problem, sendProblem } from '@shellgrade/http';

export interface OpsTrendOptions extends OpsAdminOptions {
  bench?: BenchCli;
}

export const DEFAULT_TREND_RUNS = 10;
export const MAX_TREND_RUNS = 50;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The harness's arguments for a query, or why the query is refused (400). */
export function trendArgs(query: Record<string, unknown>): { args: string[] } | { detail: string } {
  const { preset, last, profile } = query;
  if (typeof preset !== 'string' || !NAME.test(preset)) return { detail: 'name one preset: preset=<name> (lower-case letters, digits, "-")' };
  const args = ['trend', '--variant', preset, '--json'];
  if (last !== undefined) {
    const n = typeof last === 'string' && /^\d{1,3}$/.test(last) ? Number(last) : NaN;
    if (!(n >= 1 && n <= MAX_TREND_RUNS)) return { detail: `last=<n> is a whole number of runs from 1 to ${MAX_TREND_RUNS} (default ${DEFAULT_TREND_RUNS}); got ${JSON.stringify(String(last).slice(0, 20))}` };
    args.push('--last', String(n));
  }
  if (profile !== undefined && profile !== '') {
    if (typeof profile !== 'string' || !NAME.test(profile)) return { detail: 'profile=<name> names one profile (lower-case letters, digits, "-")' };
    args.push('--profile', profile);
  }
  return { args };
}

/** The harness's answer parsed against the contract, or why it does not match. */
export function parseTrend(stdout: string): { data: Trend } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch {
    return { error: 'bench trend did not answer JSON' };
  }
  const parsed = trendSchema.safeParse(raw);
  return parsed.success ? { data: parsed.data } : { error: `bench trend's answer does not match the console's contract: ${schemaReason(parsed.error)}` };
}

export async function serveOpsTrend(req: Request, res: Response, opts: OpsTrendOptions): Promise<void> {
  if (!(await admitAdmin(req, res, opts))) return;
  res.setHeader('Cache-Control', 'no-store');
  if (!opts.bench) return sendProblem(res, problem(404, 'this entry point has no benchmark harness'));
  const asked = trendArgs(req.query as Record<string, unknown>);
  if ('detail' in asked) return sendProblem(res, problem(400, asked.detail));
  let stdout: string;
  try {
    stdout = await runBenchCli(opts.bench, asked.args);
  } catch (error) {
    return sendProblem(res, problem(500, `bench trend failed: ${(error as Error).message}`));
  }
  const trend = parseTrend(stdout);
  if ('error' in trend) return sendProblem(res, problem(500, trend.error));
  res.json(trend.data);
}
