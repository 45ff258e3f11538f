/** The console's staff credential is the auth adapter's own login check plus the staff role (teacher, admin). */
import type { Request } from 'express';
import type { AuthenticatedRequest, RequestAuthenticator } from '@shellgrade/auth';
import { unauthenticated } from '@shellgrade/auth';
import { consoleStaffCheck } from '../src';

/** Logs in whoever presents `access_token=<role>` (parsed from the Cookie header when no cookie-parser ran). */
const authenticator: RequestAuthenticator = {
  async authenticate(req: AuthenticatedRequest) {
    const role = (req.cookies as Record<string, string> | undefined)?.access_token;
    if (!role) throw unauthenticated('authentication required');
    return { id: 1, email: 'x@y', role, ver: 1 } as never;
  },
};
const withCookie = (cookie?: string) => ({ headers: cookie ? { cookie } : {} }) as unknown as Request;

describe('consoleStaffCheck', () => {
  const isStaff = consoleStaffCheck(authenticator);

  it('says yes for a teacher or an admin, reading the cookie even where no cookie-parser ran (the gateway)', async () => {
    expect(await isStaff(withCookie('access_token=teacher'))).toBe(true);
    expect(await isStaff(withCookie('theme=dark; access_token=admin'))).toBe(true);
  });

  it('says no for a student and for anyone not logged in (never throws)', async () => {
    expect(await isStaff(withCookie('access_token=student'))).toBe(false);
    expect(await isStaff(withCookie())).toBe(false);
  });
});
