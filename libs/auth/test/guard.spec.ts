import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, type Role } from '@shellgrade/domain';
import { AuthGuard } from '../src/auth.guard';
import { isStaff, roleAllowed } from '../src/role-policy';
import { TokenService } from '../src/tokens';

const tokens = new TokenService({ secret: 'unit-test-secret-0123456789', accessTtlSeconds: 60, refreshTtlSeconds: 60 });

function context(req: object, required?: Role[]): { ctx: ExecutionContext; reflector: Reflector } {
  const reflector = new Reflector();
  jest.spyOn(reflector, 'getAllAndOverride').mockReturnValue(required);
  const ctx = {
    switchToHttp: () => ({ getRequest: () => req }),
    getHandler: () => () => undefined,
    getClass: () => class {},
  } as unknown as ExecutionContext;
  return { ctx, reflector };
}

function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? err.kind : 'other';
  }
}

describe('role policy', () => {
  it('allows any role when none is required', () => {
    expect(roleAllowed('student', undefined)).toBe(true);
    expect(roleAllowed('student', [])).toBe(true);
  });
  it('allows only listed roles', () => {
    expect(roleAllowed('teacher', ['admin', 'teacher'])).toBe(true);
    expect(roleAllowed('student', ['admin', 'teacher'])).toBe(false);
  });
  it('knows who is staff', () => {
    expect([isStaff('admin'), isStaff('teacher'), isStaff('student')]).toEqual([true, true, false]);
  });
});

describe('AuthGuard', () => {
  const student = tokens.signAccess({ id: 3, email: 's@x.test', role: 'student' });

  it('accepts a bearer token and sets req.user', () => {
    const req: Record<string, unknown> = { headers: { authorization: `Bearer ${student}` } };
    const { ctx, reflector } = context(req);
    expect(new AuthGuard(tokens, reflector).canActivate(ctx)).toBe(true);
    expect(req.user).toEqual({ id: 3, email: 's@x.test', role: 'student' });
  });

  it('accepts the access_token cookie', () => {
    const req: Record<string, unknown> = { headers: {}, cookies: { access_token: student } };
    const { ctx, reflector } = context(req);
    expect(new AuthGuard(tokens, reflector).canActivate(ctx)).toBe(true);
  });

  it('401 without a token or with a refresh token', () => {
    const none = context({ headers: {} });
    expect(kindOf(() => new AuthGuard(tokens, none.reflector).canActivate(none.ctx))).toBe('unauthenticated');
    const refresh = context({ headers: { authorization: `Bearer ${tokens.signRefresh(3).token}` } });
    expect(kindOf(() => new AuthGuard(tokens, refresh.reflector).canActivate(refresh.ctx))).toBe('unauthenticated');
  });

  it('403 when the role is not allowed', () => {
    const { ctx, reflector } = context({ headers: { authorization: `Bearer ${student}` } }, ['admin', 'teacher']);
    expect(kindOf(() => new AuthGuard(tokens, reflector).canActivate(ctx))).toBe('forbidden');
  });
});
