/**
 * Serves the browser application (apps/web, built by scripts/build.sh into dist/apps/web) from
 * an entry point (monolith or gateway), beside the API:
 *
 *   GET /app-config.json          what the browser must know before its first request
 *                                 (the archive limit, so its size check matches the server's)
 *   GET /ops/jaeger/api/...       read-only relay to the Jaeger query API for the researchers'
 *                                 trace view — for a staff account, the scrape token or a
 *                                 loopback caller straight to the service (internal-request.ts;
 *                                 anyone if http.opsAccess is `public`): traces name users and
 *                                 internals, and Jaeger answers no CORS, so the browser reaches
 *                                 it only through its own origin
 *   /ops/compare, /ops/launches...  the console's actions, for admins only (ops-console.ts)
 *   GET /ops/presets, /ops/runs[/<id>/<file>]  the console's presets and benchmark runs, gated
 *                                 the same way (ops-results.ts)
 *   GET /assets/*, /favicon.svg    the built files (hashed names: cached for a year)
 *   GET any other page            index.html (the app routes in the browser), for browsers only
 *                                 (Accept: text/html): API clients keep their 404 problem+json
 *
 * /api, /health, /metrics and /docs are never answered here. A missing build serves nothing
 * (the entry point still runs; the log says how to build it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import serveStatic from 'serve-static';
import { grantOps, mayReadOps, type OpsAccess } from './internal-request';
import { denyFraming } from './frame-denial';
import { serveOpsResults, type PresetSummary } from './ops-results';
import { serveOpsConsole, type OpsConsoleOptions } from './ops-console';
import { problem, sendProblem } from './problem';

export interface WebAppOptions extends OpsConsoleOptions {
  /** The built app (index.html + assets/); usually `<dist>/apps/web`. */
  dir: string;
  /** The spec's http.maxArchiveBytes: the browser checks a file against it before uploading. */
  maxArchiveBytes: number;
  /** Who may use the Jaeger relay (the spec's http.opsAccess). */
  opsAccess: OpsAccess;
  /** Whether the request comes from a staff account (teacher, admin): the console's credential. Built by the wiring from the auth adapter; absent: none. */
  isStaff?: (req: Request) => Promise<boolean>;
  /** Jaeger query API base, e.g. http://127.0.0.1:16686; undefined: no relay. */
  jaegerQueryUrl?: string;
  /** The presets the console lists (computed by the wiring from the spec, on the first GET /ops/presets). */
  presets?: () => PresetSummary[];
  /** The benchmark results folder (GET /ops/runs, /ops/runs/<id>/<file>); undefined: none. */
  resultsDir?: string;
  /** Served by the standalone console (console-server.ts), not by a variant: the browser shows the console's pages only. */
  standalone?: boolean;
}

/** What GET /app-config.json answers. */
export interface WebAppConfig {
  maxArchiveBytes: number;
  traces: boolean;
  /** The standalone console (npm run console): no student or teacher pages, the console at /. */
  standalone: boolean;
}

interface Use {
  use(handler: (req: Request, res: Response, next: NextFunction) => void): unknown;
}

const SERVER_PATHS = /^\/(api|health|metrics|docs|ops)(\/|-json|-yaml|$)/i;
/** The Jaeger query API paths the trace view reads; nothing else is relayed. */
const JAEGER_PATHS = /^\/ops\/jaeger(\/api\/(services|traces(\/[0-9a-f]{1,32})?))$/i;
const JAEGER_TIMEOUT_MS = 15_000;
const CONSOLE_PATHS = /^\/ops\//i;

export function serveWebApp(app: Use, opts: WebAppOptions): void {
  const log = new Logger('web-app');
  const config: WebAppConfig = { maxArchiveBytes: opts.maxArchiveBytes, traces: opts.jaegerQueryUrl !== undefined, standalone: opts.standalone === true };
  // Also where no configureHttpApp ran before (the gateway): the app's pages are what a decoy would frame.
  app.use(denyFraming);
  if (opts.isStaff) app.use(staffGrantsConsole(opts.isStaff, opts.opsAccess));
  app.use((req, res, next) => {
    if (serveOpsConsole(req, res, opts)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/app-config.json') {
      res.setHeader('Cache-Control', 'no-store');
      res.json(config);
      return;
    }
    const jaeger = JAEGER_PATHS.exec(req.path);
    if (jaeger) {
      void relayToJaeger(req, res, opts, jaeger[1]!);
      return;
    }
    if (serveOpsResults(req, res, opts)) return;
    next();
  });

  const index = join(opts.dir, 'index.html');
  if (!existsSync(index)) {
    log.warn(`no web app at ${opts.dir} (build it: npm run build): / answers 404`);
    return;
  }
  const files = serveStatic(opts.dir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.startsWith(join(opts.dir, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || SERVER_PATHS.test(req.path)) return next();
    files(req, res, () => {
      if (!/text\/html/i.test(req.headers.accept ?? '')) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  });
}

/** A staff account may read the console's surfaces (the handlers below check mayReadOps). A failed check grants nothing. */
function staffGrantsConsole(isStaff: (req: Request) => Promise<boolean>, access: OpsAccess) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!CONSOLE_PATHS.test(req.path) || mayReadOps(req, access)) return next();
    isStaff(req).then(
      (staff) => {
        if (staff) grantOps(req);
        next();
      },
      () => next(),
    );
  };
}

async function relayToJaeger(req: Request, res: Response, opts: WebAppOptions, path: string): Promise<void> {
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
