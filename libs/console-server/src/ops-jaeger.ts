/**
 * GET /ops/jaeger/api/...   read-only relay to the Jaeger query API for the console's trace view,
 * gated like the other console reads (a staff account, the scrape token or a loopback caller
 * straight to the service; anyone if http.opsAccess is `public`): traces name users and
 * internals, and Jaeger answers no CORS, so the browser reaches it only through its own origin.
 * Only the trace reads the page makes are relayed; anything else is left to the next handler.
 */
import type { Request, Response } from 'express';
import { mayReadOps, type OpsAccess, problem, sendProblem } from '@shellgrade/http';

export interface OpsJaegerOptions {
  opsAccess: OpsAccess;
  /** Jaeger query API base, e.g. http://127.0.0.1:16686; undefined: no relay. */
  jaegerQueryUrl?: string;
}

/** The Jaeger query API paths the trace view reads; nothing else is relayed. */
const JAEGER_PATHS = /^\/ops\/jaeger(\/api\/(services|traces(\/[0-9a-f]{1,32})?))$/i;
const JAEGER_TIMEOUT_MS = 15_000;

/** Relays a GET of the trace view's paths; false when the request is none of them. */
export function serveOpsJaeger(req: Request, res: Response, opts: OpsJaegerOptions): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const jaeger = JAEGER_PATHS.exec(req.path);
  if (!jaeger) return false;
  void relayToJaeger(req, res, opts, jaeger[1]!);
  return true;
}

async function relayToJaeger(req: Request, res: Response, opts: OpsJaegerOptions, path: string): Promise<void> {
  if (!opts.jaegerQueryUrl || !mayReadOps(req, opts.opsAccess)) {
    sendProblem(res, problem(404, 'not found'));
    return;
  }
  const url = new URL(path, opts.jaegerQueryUrl);
  const query = req.originalUrl.indexOf('?');
  if (query >= 0) url.search = req.originalUrl.slice(query);
  try {
    const upstream = await fetch(url, { signal: AbortSignal.timeout(JAEGER_TIMEOUT_MS) });
    res.status(upstream.status);
    res.setHeader('Content-Type', upstream.headers.get('content-type') ?? 'application/json');
    res.setHeader('Cache-Control', 'no-store');
    res.end(Buffer.from(await upstream.arrayBuffer()));
  } catch (error) {
    sendProblem(res, problem(502, `the Jaeger query API at ${opts.jaegerQueryUrl} did not answer: ${(error as Error).message}`));
  }
}
