/**
 * The console's actions, for admins only (ops-admin.ts), beside its read-only surfaces:
 *
 *   GET  /ops/compare?runs=a,b[,c,d,e]      N-way `bench compare` (ops-compare.ts)
 *   /ops/launches[/<id>[/events|/cancel]]   launch, watch and cancel a run (ops-launch.ts)
 *
 * Every other path is left to the next handler.
 */
import type { Request, Response } from 'express';
import { serveOpsCompare, type OpsCompareOptions } from './ops-compare';
import { isLaunchPath, serveOpsLaunch, type OpsLaunchOptions } from './ops-launch';

export type OpsConsoleOptions = OpsCompareOptions & OpsLaunchOptions;

/** Handles the console's action paths; false when the path is none of them. */
export function serveOpsConsole(req: Request, res: Response, opts: OpsConsoleOptions): boolean {
  if (req.path === '/ops/compare' && req.method === 'GET') {
    void serveOpsCompare(req, res, opts);
    return true;
  }
  if (isLaunchPath(req.path)) {
    void serveOpsLaunch(req, res, opts);
    return true;
  }
  return false;
}
