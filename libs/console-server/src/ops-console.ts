/**
 * The console's actions, for admins only (ops-admin.ts), beside its read-only surfaces:
 *
 *   GET  /ops/compare?runs=a,b[,c,d,e]      N-way `bench compare` (ops-compare.ts)
 *   GET  /ops/trend?preset=<p>[&last=<n>]   one preset's last tests over time, `bench trend` (ops-trend.ts)
 *   /ops/launches[/<id>[/events|/cancel]]   launch, watch and cancel a run (ops-launch.ts)
 *   GET  /ops/findings[/<id>[/<file>]]      the findings reports (ops-findings.ts)
 *   GET  /ops/faults[/<id>]                 the fault runs and the resilience matrix (ops-faults.ts)
 *
 * Every other path is left to the next handler.
 */
import type { Request, Response } from 'express';
import { serveOpsCompare, type OpsCompareOptions } from './ops-compare';
import { serveOpsTrend } from './ops-trend';
import { isLaunchPath, serveOpsLaunch, type OpsLaunchOptions } from './ops-launch';
import { isFindingsPath, serveOpsFindings } from './ops-findings';
import { isFaultsPath, serveOpsFaults } from './ops-faults';
import type { OpsReportsOptions } from './ops-findings-files';

export type OpsConsoleOptions = OpsCompareOptions & OpsLaunchOptions & OpsReportsOptions;

/** Handles the console's action paths; false when the path is none of them. */
export function serveOpsConsole(req: Request, res: Response, opts: OpsConsoleOptions): boolean {
  if (req.path === '/ops/compare' && req.method === 'GET') {
    void serveOpsCompare(req, res, opts);
    return true;
  }
  if (req.path === '/ops/trend' && req.method === 'GET') {
    void serveOpsTrend(req, res, opts);
    return true;
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && isFindingsPath(req.path)) {
    void serveOpsFindings(req, res, opts);
    return true;
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && isFaultsPath(req.path)) {
    void serveOpsFaults(req, res, opts);
    return true;
  }
  if (isLaunchPath(req.path)) {
    void serveOpsLaunch(req, res, opts);
    return true;
  }
  return false;
}
