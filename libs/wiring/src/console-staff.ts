/**
 * The console's credential: /ops opens to a staff account (teacher, admin),
 * checked by the process's own login check (libs/auth's RequestAuthenticator) — no second way
 * of reading a token.
 */
import { isStaff, type RequestAuthenticator } from '@shellgrade/auth';
import type { Role } from '@shellgrade/domain';
import cookieParser from 'cookie-parser';
import type { Request } from 'express';

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

