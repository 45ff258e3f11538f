/**
 * Cookies in, cookies out: the HTTP side of login sessions that AuthController and UsersController
 * share (a controller never imports another: what two share lives in a file of its own). Every
 * decision is LOGIN_SESSIONS' (libs/auth's port).
 */
import { Inject, Injectable } from '@nestjs/common';
import {
  ACCESS_COOKIE,
  accessTokenOf,
  AUTH_CONFIG,
  bearerToken,
  clientAddressOf,
  LOGIN_SESSIONS,
  REFRESH_COOKIE,
  TrustedProxies,
  type AuthConfig,
  type LoginSessions,
  type SessionTokens,
} from '@shellgrade/auth';
import type { CookieOptions, Request, Response } from 'express';
import { userView } from '../admin/views';

/** The credentials of a login, as AuthController parsed them. */
export interface LoginBody {
  email: string;
  password: string;
}

/** The refresh token from its cookie, or a bearer token (clients without a cookie jar). */
function refreshTokenOf(req: Request): string | undefined {
  return (req.cookies as Record<string, string> | undefined)?.[REFRESH_COOKIE] ?? bearerToken(req);
}

/**
 * The HTTP side of sessions (cookies in, cookies out). Shared by AuthController and by any
 * controller whose `:id` routes could shadow /api/user/logout (see UsersController).
 */
@Injectable()
export class SessionHttp {
  private readonly proxies: TrustedProxies;

  constructor(
    @Inject(LOGIN_SESSIONS) private readonly auth: LoginSessions,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
  ) {
    this.proxies = new TrustedProxies(cfg.trustedProxies);
  }

  async login(body: LoginBody, req: Request, res: Response) {
    const session = await this.auth.login(body.email, body.password, clientOf(req, this.proxies));
    this.setCookies(req, res, session);
    return userView(session.user);
  }

  /** Rotates the refresh token (new refresh and access cookies); a reused one ends the login. */
  async verify(req: Request, res: Response) {
    const session = await this.auth.refresh(refreshTokenOf(req));
    this.setCookies(req, res, session);
    return userView(session.user);
  }

  /** A new access cookie for this session after the account changed (its token version moved). */
  async reissueAccess(req: Request, res: Response, userId: number, sid: string): Promise<void> {
    res.cookie(ACCESS_COOKIE, await this.auth.reissueAccess(userId, sid), this.cookie(req, this.cfg.accessTtlSeconds, '/'));
  }

  /**
   * Ends the login session: named by the refresh token when the client sends one (bearer
   * clients), else by the access token's `sid` (browsers: the refresh cookie is scoped to
   * the refresh path and never reaches this route). An expired access token still names it.
   */
  async logout(req: Request, res: Response) {
    const revoked = await this.auth.logout({ refreshToken: refreshTokenOf(req), accessToken: accessTokenOf(req) });
    res.clearCookie(ACCESS_COOKIE, this.clearing(req, '/'));
    res.clearCookie(REFRESH_COOKIE, this.clearing(req, this.cfg.refreshCookiePath));
    return { logged_out: true, revoked };
  }

  private setCookies(req: Request, res: Response, session: SessionTokens): void {
    res.cookie(ACCESS_COOKIE, session.accessToken, this.cookie(req, this.cfg.accessTtlSeconds, '/'));
    res.cookie(REFRESH_COOKIE, session.refreshToken, this.cookie(req, this.cfg.refreshTtlSeconds, this.cfg.refreshCookiePath));
  }

  private cookie(req: Request, ttlSeconds: number, path: string): CookieOptions {
    const secure = this.cfg.secureCookies === 'auto' ? req.secure : this.cfg.secureCookies;
    return { httpOnly: true, sameSite: 'lax', path, secure, maxAge: ttlSeconds * 1000 };
  }

  private clearing(req: Request, path: string): CookieOptions {
    const { maxAge: _maxAge, ...clear } = this.cookie(req, 0, path);
    return clear;
  }
}

/**
 * The client's address, the per-client rate-limit key: X-Forwarded-For is believed only from
 * `proxies` (the variant's own, AuthConfig.trustedProxies); without them the peer is the client.
 */
export const clientOf = (req: Request, proxies: TrustedProxies = NO_PROXIES): string => clientAddressOf(req, proxies);
const NO_PROXIES = new TrustedProxies([]);

