/**
 * The standalone researchers' console (`npm run console`): the web app's console pages and the
 * /ops surfaces (console-routes.ts) served by a process of their own, on loopback,
 * outside every measured variant. A console served by a variant goes down with it, so that one
 * refuses the plans that bring up other presets (matrix, findings) or break the variant's own
 * processes and servers (faults); this one launches every plan, watches it across the presets it
 * brings up and down, and cancels it.
 *
 * Everything here asks for the console's sign-in (console-session.ts), /ops included: a loopback
 * caller is not enough, since every caller of a loopback process is one. Nor is a request that
 * names another site in its Host header: a page whose name was rebound to 127.0.0.1 (DNS
 * rebinding) is answered 404 before anything else (internal-request.ts, namesThisMachine). Bodies
 * are small JSON only; unsafe cross-site requests are refused (csrf.ts); nothing is framed.
 */
import cookieParser from 'cookie-parser';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { crossSiteGuard, denyFraming, namesThisMachine, problem, sendProblem, type ServiceIdentity, SMALL_JSON_LIMIT_BYTES } from '@shellgrade/http';
import { ConsoleSession } from './console-session';
import { serveAppWithConsole, type AppWithConsoleOptions } from './console-routes';

export type ConsoleServerOptions = Omit<AppWithConsoleOptions, 'isAdmin' | 'isStaff' | 'ownVariant' | 'standalone' | 'opsAccess'> & {
  /** The console's token (consoleToken): the one credential it accepts. */
  token: string;
  /** Names besides localhost and the loopback addresses the console is addressed by (SG_OPS_HOST_NAMES). */
  hostNames?: readonly string[];
};

const OPS_PATHS = /^\/ops(\/|$)/i;

/**
 * The console's /health: the identity a service's /health gives its internal callers (role and
 * replica; no variant, since it serves none), from which the Console page labels the entry it
 * talks to ("console #0", as "monolith #0" for a variant's).
 */
export const CONSOLE_HEALTH = { status: 'ok', role: 'console', replica: 0 } as const satisfies { status: string } & Pick<ServiceIdentity, 'role' | 'replica'>;

export function consoleApp(opts: ConsoleServerOptions): Express {
  const { token, hostNames = [], ...web } = opts;
  const session = new ConsoleSession(token);
  const signedIn = (req: Request): Promise<boolean> => Promise.resolve(session.signedIn(req));
  const app = express();
  app.disable('x-powered-by');
  // Loopback only, no proxy in front: no X-Forwarded-* is believed.
  app.set('trust proxy', false);
  app.use(denyFraming);
  app.use(thisMachineOnly(hostNames));
  app.use(crossSiteGuard(''));
  app.use(cookieParser());
  app.use(express.json({ limit: SMALL_JSON_LIMIT_BYTES }));
  // The Console page's status: this process, which serves no variant (anyone may ask, as for a service's /health).
  app.get('/health', (_req: Request, res: Response) => void res.setHeader('Cache-Control', 'no-store').json(CONSOLE_HEALTH));
  app.use(session.api);
  app.use((req: Request, res: Response, next: NextFunction) => (OPS_PATHS.test(req.path) && !session.signedIn(req) ? sendProblem(res, problem(404, 'not found')) : next()));
  serveAppWithConsole(app, { ...web, opsAccess: 'internal', standalone: true, isStaff: signedIn, isAdmin: signedIn });
  app.use((_req: Request, res: Response) => sendProblem(res, problem(404, 'not found')));
  app.use(bodyErrors);
  return app;
}

/** Every request must address this machine by one of its names: the whole console is an operational surface. */
function thisMachineOnly(hostNames: readonly string[]) {
  const names = ['localhost', '127.0.0.1', '[::1]', ...hostNames].join(', ');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (namesThisMachine(req.headers.host, hostNames)) return next();
    sendProblem(res, problem(404, `not found: the console answers requests addressed to ${names} only (this one names another site)`));
  };
}

/** A body that is not JSON, or too large: 4xx problem+json with the reason, never a stack trace. */
function bodyErrors(error: { status?: number; type?: string; message?: string }, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
  const detail =
    error.type === 'entity.too.large'
      ? `the body is larger than the console accepts (${SMALL_JSON_LIMIT_BYTES / 1024} KiB)`
      : error.type === 'entity.parse.failed'
        ? 'the body is not valid JSON'
        : status === 500
          ? 'the console failed on this request'
          : (error.message ?? 'bad request');
  sendProblem(res, problem(status, detail));
}
