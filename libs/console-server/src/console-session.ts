/**
 * Sign-in to the standalone console (`npm run console`, console-server.ts). It has no user
 * database on purpose: it must outlive every variant, and the PostgreSQL a faults run restarts
 * under it. One researcher credential instead — a random token kept in run/console/token (mode
 * 0600, readable by whoever may run the harness on this machine), as Jupyter does. The app's own
 * Login page signs in with it: email `console`, password the token. The browser then holds an
 * httpOnly, SameSite=Strict cookie derived from the token (never the token itself).
 *
 *   POST   /api/user/login    {email: "console", password: <token>} → 200 the console's user; 401 otherwise
 *   GET    /api/auth/verify   the console's user while the cookie holds; 401 otherwise
 *   DELETE /api/user/logout   clears the cookie
 *   any other /api/...        404 problem+json: the application's API is a variant's
 *
 * No login rate limit: a 192-bit token is not guessed by trying, and every answer costs one HMAC.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { problem, sendProblem } from '@shellgrade/http';

/** Who the web app is signed in as on the standalone console: an admin, so every console page shows. */
export const CONSOLE_USER = { user_id: 0, email: 'console', firstname: 'Researcher', lastname: '(console)', role: 'admin' } as const;
export const CONSOLE_COOKIE = 'sg_console';

const credentials = z.object({ email: z.string(), password: z.string() });
const WRONG = "not the console's credential: sign in as console with the token in run/console/token (npm run console prints where)";

/** The console's token: read from `file`, or made (24 random bytes) and written there readable by its owner only. */
export function consoleToken(file: string): string {
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return token;
  }
  mkdirSync(dirname(file), { recursive: true });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

export class ConsoleSession {
  private readonly cookieValue: Buffer;

  constructor(private readonly token: string) {
    this.cookieValue = Buffer.from(createHmac('sha256', token).update('shellgrade console session').digest('base64url'));
  }

  /** Whether the request carries the console's session cookie (constant-time). */
  signedIn(req: Request): boolean {
    const presented = (req.cookies as Record<string, string> | undefined)?.[CONSOLE_COOKIE];
    return typeof presented === 'string' && sameSecret(Buffer.from(presented), this.cookieValue);
  }

  /** Express middleware answering /api/* as above; every other path goes on. */
  readonly api = (req: Request, res: Response, next: NextFunction): void => {
    if (!/^\/api(\/|$)/i.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-store');
    if (req.path === '/api/user/login' && req.method === 'POST') return this.logIn(req, res);
    if (req.path === '/api/auth/verify' && req.method === 'GET') {
      if (this.signedIn(req)) return void res.json(CONSOLE_USER);
      return sendProblem(res, problem(401, 'not signed in to the console'));
    }
    if (req.path === '/api/user/logout' && req.method === 'DELETE') {
      res.clearCookie(CONSOLE_COOKIE, { path: '/' });
      return void res.status(204).end();
    }
    sendProblem(res, problem(404, "this is the researchers' console (npm run console): the application's API is served by a variant (npm run variant -- up <preset>)"));
  };

  private logIn(req: Request, res: Response): void {
    const body = credentials.safeParse(req.body);
    const ok = body.success && body.data.email.trim().toLowerCase() === CONSOLE_USER.email && sameSecret(Buffer.from(body.data.password.trim()), Buffer.from(this.token));
    if (!ok) return sendProblem(res, problem(401, WRONG));
    res.cookie(CONSOLE_COOKIE, this.cookieValue.toString(), { httpOnly: true, sameSite: 'strict', path: '/' });
    res.json(CONSOLE_USER);
  }
}

/** Equal secrets, compared without telling how near a wrong one came (lengths differ: not equal). */
function sameSecret(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
