/**
 * The console's actions, for admins only (ops-admin.ts), beside its read-only surfaces:
 *
 *   GET  /ops/compare?runs=a,b[,c,d,e]      N-way `bench compare` (ops-compare.ts)
 *
 * Every other path is left to the next handler.
 */
import type { Request, Response } from 'express';
import { serveOpsCompare, type OpsCompareOptions } from './ops-compare';

export type OpsConsoleOptions = OpsCompareOptions;

/** Handles the console's action paths; false when the path is none of them. */
export function serveOpsConsole(req: Request, res: Response, opts: OpsConsoleOptions): boolean {
  if (req.path === '/ops/compare' && req.method === 'GET') {
    void serveOpsCompare(req, res, opts);
    return true;
  }
  return false;
}
