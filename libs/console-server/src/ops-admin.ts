/**
 * The console's actions (compare, launch, watch, cancel) are for an admin account only, and only
 * where the operational surfaces are open to the caller (mayReadOps): a student or a teacher —
 * even on loopback — gets 404 problem+json, as if the surface did not exist.
 */
import type { Request, Response } from 'express';
import { mayReadOps, type OpsAccess, problem, sendProblem } from '@shellgrade/http';

export interface OpsAdminOptions {
  opsAccess: OpsAccess;
  /** Whether the request comes from an admin account (built by the wiring from the auth adapter); absent: no console actions here. */
  isAdmin?: (req: Request) => Promise<boolean>;
}

/** True when the caller is an admin allowed on the ops surfaces; otherwise answers 404 and returns false. */
export async function admitAdmin(req: Request, res: Response, opts: OpsAdminOptions): Promise<boolean> {
  const admin = opts.isAdmin !== undefined && mayReadOps(req, opts.opsAccess) && (await opts.isAdmin(req).catch(() => false));
  if (!admin) sendProblem(res, problem(404, 'not found'));
  return admin;
}
