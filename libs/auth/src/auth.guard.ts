import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, type Role } from '@shellgrade/domain';
import { ROLES_KEY, type RequestWithUser } from './decorators';
import { roleAllowed } from './role-policy';
import { TokenService, unauthenticated } from './tokens';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

/** `Authorization: Bearer <token>` if present, else undefined. */
export function bearerToken(req: RequestWithUser): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Accepts the access token from `Authorization: Bearer` or the `access_token` cookie
 * (cookie-parser must run first; libs/http's configureHttpApp installs it), then enforces
 * @Roles on the handler or controller. Stateless: no database round trip per request.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly reflector: Reflector,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<RequestWithUser>();
    const token = bearerToken(req) ?? (req.cookies as Record<string, string> | undefined)?.[ACCESS_COOKIE];
    if (!token) throw unauthenticated('authentication required');
    const user = this.tokens.verifyAccess(token);
    const required = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [ctx.getHandler(), ctx.getClass()]);
    if (!roleAllowed(user.role, required)) throw forbidden(`requires role ${required!.join(' or ')}`);
    req.user = user;
    return true;
  }
}
