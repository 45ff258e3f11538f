/**
 * No page of ours may be framed by another site (clickjacking: a hidden frame
 * of the app under a decoy's buttons). `frame-ancestors 'none'` for current browsers,
 * `X-Frame-Options: DENY` for the older ones. The app frames nothing of its own.
 */
import type { ServerResponse } from 'node:http';

export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** Express middleware: every response refuses to be framed. A handler may widen the CSP, keeping this directive (ops-results.ts). */
export function denyFraming(_req: unknown, res: Pick<ServerResponse, 'setHeader'>, next: () => void): void {
  res.setHeader('Content-Security-Policy', FRAME_ANCESTORS_NONE);
  res.setHeader('X-Frame-Options', 'DENY');
  next();
}
