/**
 * The console's credential (issue 34 item 4): /ops opens to a staff account (teacher, admin),
 * checked by the process's own login check (libs/auth's RequestAuthenticator) — no second way
 * of reading a token.
 */
import { isStaff, REQUEST_AUTHENTICATOR, type RequestAuthenticator } from '@shellgrade/auth';
import type { Role } from '@shellgrade/domain';
import { serveWebApp } from '@shellgrade/http';
import type { ServiceConfig } from '@shellgrade/variant';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import type { Request } from 'express';
import { webAppOptionsOf } from './service-settings';

const parseCookies = cookieParser();

/** A staff check for the console: true for a logged-in teacher or admin, false otherwise (never throws). */
export const consoleStaffCheck = (authenticator: RequestAuthenticator) => roleCheck(authenticator, isStaff);

/** The console's actions (compare, launch, cancel): true for a logged-in admin only. */
export const consoleAdminCheck = (authenticator: RequestAuthenticator) => roleCheck(authenticator, (role) => role === 'admin');

function roleCheck(authenticator: RequestAuthenticator, allowed: (role: Role) => boolean): (req: Request) => Promise<boolean> {
  return async (req) => {
    if (req.cookies === undefined) parseCookies(req, {} as never, () => undefined); // the gateway runs no cookie-parser
    try {
      return allowed((await authenticator.authenticate(req)).role);
    } catch {
      return false;
    }
  };
}

/**
 * The browser app at / with the console's /ops for staff and operators, served by a process that
 * checks logins itself: the monolith, and the leftover when HAProxy is the gateway (gateway.engine
 * haproxy sends it every path that is not the exercise service's).
 */
export function serveWebAppWithConsole(app: NestExpressApplication, cfg: ServiceConfig): void {
  const authenticator = app.get<symbol, RequestAuthenticator>(REQUEST_AUTHENTICATOR, { strict: false });
  serveWebApp(app, { ...webAppOptionsOf(cfg), isStaff: consoleStaffCheck(authenticator), isAdmin: consoleAdminCheck(authenticator) });
}
