/** Where a request carries its credentials: the cookies the SPA gets at login, or a bearer token. */
import type { RequestWithUser } from './decorators';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

/** `Authorization: Bearer <token>` if present, else undefined. */
export function bearerToken(req: Pick<RequestWithUser, 'headers'>): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** The access token of a request: `Authorization: Bearer` first, else the `access_token` cookie (cookie-parser must have run). */
export function accessTokenOf(req: Pick<RequestWithUser, 'headers'> & Partial<Pick<RequestWithUser, 'cookies'>>): string | undefined {
  return bearerToken(req) ?? (req.cookies as Record<string, string> | undefined)?.[ACCESS_COOKIE];
}
