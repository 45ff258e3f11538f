import { Body, Controller, Delete, Get, HttpCode, Injectable, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { User } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import type { CookieOptions, Request, Response } from 'express';
import { z } from 'zod';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { ACCESS_COOKIE, bearerToken, REFRESH_COOKIE } from './auth.guard';
import { AuthService } from './auth.service';

const loginSchema = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
});
type LoginBody = z.infer<typeof loginSchema>;

/** The login/verify body of the original API. */
export const sessionUserView = (u: User) => ({ user_id: u.id, email: u.email, firstname: u.firstname, lastname: u.lastname, role: u.role });

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
  constructor(
    private readonly auth: AuthService,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
  ) {}

  async login(body: LoginBody, res: Response) {
    const { user, accessToken, refreshToken } = await this.auth.login(body.email, body.password);
    res.cookie(ACCESS_COOKIE, accessToken, this.cookie(this.cfg.accessTtlSeconds));
    res.cookie(REFRESH_COOKIE, refreshToken, this.cookie(this.cfg.refreshTtlSeconds));
    return sessionUserView(user);
  }

  async verify(req: Request, res: Response) {
    const { user, accessToken } = await this.auth.refresh(refreshTokenOf(req));
    res.cookie(ACCESS_COOKIE, accessToken, this.cookie(this.cfg.accessTtlSeconds));
    return sessionUserView(user);
  }

  async logout(req: Request, res: Response) {
    const revoked = await this.auth.logout(refreshTokenOf(req));
    const { maxAge: _maxAge, ...clear } = this.cookie(0);
    res.clearCookie(ACCESS_COOKIE, clear);
    res.clearCookie(REFRESH_COOKIE, clear);
    return { logged_out: true, revoked };
  }

  private cookie(ttlSeconds: number): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', path: '/', secure: this.cfg.secureCookies, maxAge: ttlSeconds * 1000 };
  }
}

@ApiTags('auth')
@Controller('api')
export class AuthController {
  constructor(private readonly sessions: SessionHttp) {}

  @Post('user/login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in: sets httpOnly access_token and refresh_token cookies' })
  @ApiBody({ schema: { properties: { email: { type: 'string' }, password: { type: 'string' } }, required: ['email', 'password'] } })
  login(@Body(new ZodPipe(loginSchema)) body: LoginBody, @Res({ passthrough: true }) res: Response) {
    return this.sessions.login(body, res);
  }

  @Get('auth/verify')
  @ApiOperation({ summary: 'Fresh access token while the refresh token (cookie or bearer) is valid and not revoked' })
  verify(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.verify(req, res);
  }

  @Delete('user/logout')
  @ApiOperation({ summary: 'Revokes this session (every replica) and clears the cookies' })
  logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.logout(req, res);
  }
}
