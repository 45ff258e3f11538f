import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, type Role } from '@shellgrade/domain';
import { ROLES_KEY, type RequestWithUser } from './decorators';
import { roleAllowed } from './role-policy';
import { REQUEST_AUTHENTICATOR, type RequestAuthenticator } from './request-authenticators';

export { ACCESS_COOKIE, REFRESH_COOKIE, accessTokenOf, bearerToken } from './request-credentials';

/**
 * Authenticates the request the way this process was told to (request-authenticators.ts: the
 * access token, or the offloading gateway's assertion), then enforces @Roles on the handler or
 * controller. cookie-parser must run first (libs/http's configureHttpApp installs it).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(REQUEST_AUTHENTICATOR) private readonly authenticator: RequestAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<RequestWithUser>();
    const user = await this.authenticator.authenticate(req);
    const required = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [ctx.getHandler(), ctx.getClass()]);
    if (!roleAllowed(user.role, required)) throw forbidden(`requires role ${required!.join(' or ')}`);
    req.user = user;
    return true;
  }
}
