import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Role } from '@shellgrade/domain';
import type { Request } from 'express';
import { type AuthenticatedUser, unauthenticated } from './jwt-tokens';

export const ROLES_KEY = 'shellgrade:roles';

/** Restricts a controller or handler to these roles (checked by AuthGuard). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

export type RequestWithUser = Request & { user?: AuthenticatedUser };

/** The authenticated user set by AuthGuard. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const user = ctx.switchToHttp().getRequest<RequestWithUser>().user;
  if (!user) throw unauthenticated('no authenticated user (is AuthGuard applied?)');
  return user;
});
