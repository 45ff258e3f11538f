/**
 * The browser app with the researchers' console beside it, as an entry point serves them (the
 * wiring mounts it where the variant's entry serves the app; the standalone console,
 * console-server.ts, serves the same):
 *
 *   GET /ops/jaeger/api/...       the trace view's read-only relay to Jaeger (ops-jaeger.ts)
 *   /ops/compare, /ops/launches...  the console's actions, for admins only (ops-console.ts)
 *   GET /ops/presets, /ops/runs[/<id>/<file>]  the console's presets and benchmark runs (ops-results.ts)
 *   anything else                 the browser app (libs/http web-app.ts)
 *
 * The reads open to a staff account (teacher, admin: `isStaff`, built by the wiring from the
 * process's own login check), the scrape token or a loopback caller straight to the service
 * (libs/http internal-request.ts; anyone if http.opsAccess is `public`); the actions to an admin
 * only (`isAdmin`, ops-admin.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import { denyFraming, grantOps, mayReadOps, type OpsAccess, serveWebApp, type WebAppOptions } from '@shellgrade/http';
import { serveOpsConsole, type OpsConsoleOptions } from './ops-console';
import { serveOpsJaeger } from './ops-jaeger';
import { serveOpsResults, type PresetSummary } from './ops-results';

export interface AppWithConsoleOptions extends Omit<WebAppOptions, 'traces'>, OpsConsoleOptions {
  /** Who may read the console's surfaces (the spec's http.opsAccess). */
  opsAccess: OpsAccess;
  /** Whether the request comes from a staff account (teacher, admin): the console's credential. Built by the wiring from the auth adapter; absent: none. */
  isStaff?: (req: Request) => Promise<boolean>;
  /** Jaeger query API base, e.g. http://127.0.0.1:16686; undefined: no relay (and no trace view in the app). */
  jaegerQueryUrl?: string;
  /** The presets the console lists (computed by the wiring from the spec, on the first GET /ops/presets). */
  presets?: () => PresetSummary[];
  /** The benchmark results folder (GET /ops/runs, /ops/runs/<id>/<file>); undefined: none. */
  resultsDir?: string;
}

interface Use {
  use(handler: (req: Request, res: Response, next: NextFunction) => void): unknown;
}

const CONSOLE_PATHS = /^\/ops\//i;

export function serveAppWithConsole(app: Use, opts: AppWithConsoleOptions): void {
  // The console's answers are pages of ours too (also where no configureHttpApp ran: the gateway).
  app.use(denyFraming);
  if (opts.isStaff) app.use(staffGrantsConsole(opts.isStaff, opts.opsAccess));
  app.use((req, res, next) => {
    if (serveOpsConsole(req, res, opts) || serveOpsJaeger(req, res, opts)) return;
    if ((req.method === 'GET' || req.method === 'HEAD') && serveOpsResults(req, res, opts)) return;
    next();
  });
  serveWebApp(app, { dir: opts.dir, maxArchiveBytes: opts.maxArchiveBytes, traces: opts.jaegerQueryUrl !== undefined, ...(opts.standalone ? { standalone: true } : {}) });
}

/** A staff account may read the console's surfaces (the handlers check mayReadOps). A failed check grants nothing. */
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
