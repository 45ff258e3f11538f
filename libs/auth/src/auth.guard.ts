import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, type Role } from '@shellgrade/domain';
import { ROLES_KEY, type RequestWithUser } from './decorators';
import { roleAllowed } from './role-policy';
import { TokenVersions } from './token-versions';
import { TokenService, unauthenticated } from './jwt-tokens';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

/** `Authorization: Bearer <token>` if present, else undefined. */
export function bearerToken(req: RequestWithUser): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** The access token of a request: `Authorization: Bearer` first, else the `access_token` cookie. */
export function accessTokenOf(req: RequestWithUser): string | undefined {
  return bearerToken(req) ?? (req.cookies as Record<string, string> | undefined)?.[ACCESS_COOKIE];
}

/**
 * Accepts the access token from `Authorization: Bearer` or the `access_token` cookie
 * (cookie-parser must run first; libs/http's configureHttpApp installs it), refuses it once the
 * account's token version moved on (role, email or password changed; account deleted), then
 * enforces @Roles on the handler or controller.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly reflector: Reflector,
    private readonly versions: TokenVersions,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<RequestWithUser>();
    const token = accessTokenOf(req);
    if (!token) throw unauthenticated('authentication required');
    const user = this.tokens.verifyAccess(token);
    const version = await this.versions.current(user.id);
    if (version === null) throw unauthenticated('this account no longer exists');
    if (version !== user.ver) throw unauthenticated('access token outdated by an account change; refresh it');
    const required = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [ctx.getHandler(), ctx.getClass()]);
    if (!roleAllowed(user.role, required)) throw forbidden(`requires role ${required!.join(' or ')}`);
    req.user = user;
    return true;
  }
}
