/**
 * Serves the browser application (apps/web, built by scripts/build.sh into dist/apps/web) from
 * an entry point (monolith or gateway), beside the API:
 *
 *   GET /app-config.json          what the browser must know before its first request
 *                                 (the archive limit, so its size check matches the server's)
 *   GET /assets/*, /favicon.svg    the built files (hashed names: cached for a year)
 *   GET any other page            index.html (the app routes in the browser), for browsers only
 *                                 (Accept: text/html): API clients keep their 404 problem+json
 *
 * /api, /health, /metrics, /docs and /ops are never answered here: the researchers' console
 * (/ops) is libs/console-server's, mounted beside this by the wiring where the entry serves it.
 * A missing build serves nothing (the entry point still runs; the log says how to build it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import serveStatic from 'serve-static';
import { denyFraming } from './frame-denial';
import type { WebAppConfigBody } from '@shellgrade/api-contract';

export interface WebAppOptions {
  /** The built app (index.html + assets/); usually `<dist>/apps/web`. */
  dir: string;
  /** The spec's http.maxArchiveBytes: the browser checks a file against it before uploading. */
  maxArchiveBytes: number;
  /** Whether the console's trace view has a Jaeger relay to read (libs/console-server ops-jaeger.ts). */
  traces?: boolean;
  /** Served by the standalone console (libs/console-server console-server.ts), not by a variant: the browser shows the console's pages only. */
  standalone?: boolean;
}


interface Use {
  use(handler: (req: Request, res: Response, next: NextFunction) => void): unknown;
}

const SERVER_PATHS = /^\/(api|health|metrics|docs|ops)(\/|-json|-yaml|$)/i;

export function serveWebApp(app: Use, opts: WebAppOptions): void {
  const log = new Logger('web-app');
  const config: WebAppConfigBody = { maxArchiveBytes: opts.maxArchiveBytes, traces: opts.traces === true, standalone: opts.standalone === true };
  // Also where no configureHttpApp ran before (the gateway): the app's pages are what a decoy would frame.
  app.use(denyFraming);
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/app-config.json') return next();
    res.setHeader('Cache-Control', 'no-store');
    res.json(config);
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
