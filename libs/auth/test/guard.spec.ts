import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, type Role } from '@shellgrade/domain';
import { AuthGuard } from '../src/auth.guard';
import { AccessTokenAuthenticator } from '../src/request-authenticators';
import type { AuthConfig } from '../src/auth.config';
import type { CredentialStore } from '../src/ports';
import { isStaff, roleAllowed } from '../src/role-policy';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';
import { TokenService } from '../src/jwt-tokens';

const tokens = new TokenService({ secret: 'unit-test-secret-0123456789', accessTtlSeconds: 60, refreshTtlSeconds: 60 });
const SID = '6f1f7c4e-0000-4000-8000-000000000001';

/** Accounts by id → token version (a fake credential store: unit test only). */
function versionsOf(accounts: Map<number, number>, cacheMs = 0): TokenVersions {
  const store: CredentialStore = {
    findCredentials: async () => null,
    upgradePasswordHash: async () => false,
    findAccount: async (id) => (accounts.has(id) ? { user: { id, email: 'x', firstname: '', lastname: '', role: 'student' }, tokenVersion: accounts.get(id)! } : null),
  };
  return new TokenVersions(store, { tokenVersionCacheMs: cacheMs } as AuthConfig);
}

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

async function kindOf(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
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
  const accounts = new Map([[3, 0]]);
  const student = tokens.signAccess({ id: 3, email: 's@x.test', role: 'student' }, { sid: SID, ver: 0 });
  const everySessionLive = { isLive: async () => true };
  const guard = (reflector: Reflector, versions = versionsOf(accounts)) => new AuthGuard(new AccessTokenAuthenticator(tokens, versions, everySessionLive), reflector);

  it('accepts a bearer token and sets req.user', async () => {
    const req: Record<string, unknown> = { headers: { authorization: `Bearer ${student}` } };
    const { ctx, reflector } = context(req);
    await expect(guard(reflector).canActivate(ctx)).resolves.toBe(true);
    expect(req.user).toEqual({ id: 3, email: 's@x.test', role: 'student', sid: SID, ver: 0 });
  });

  it('accepts the access_token cookie', async () => {
    const req: Record<string, unknown> = { headers: {}, cookies: { access_token: student } };
    const { ctx, reflector } = context(req);
    await expect(guard(reflector).canActivate(ctx)).resolves.toBe(true);
  });

  it('401 without a token or with a refresh token', async () => {
    const none = context({ headers: {} });
    expect(await kindOf(() => guard(none.reflector).canActivate(none.ctx))).toBe('unauthenticated');
    const refresh = context({ headers: { authorization: `Bearer ${tokens.signRefresh(3).token}` } });
    expect(await kindOf(() => guard(refresh.reflector).canActivate(refresh.ctx))).toBe('unauthenticated');
  });

  it('403 when the role is not allowed', async () => {
    const { ctx, reflector } = context({ headers: { authorization: `Bearer ${student}` } }, ['admin', 'teacher']);
    expect(await kindOf(() => guard(reflector).canActivate(ctx))).toBe('forbidden');
  });

  it('401 once the account changed (token version moved) or was deleted, before the token expires', async () => {
    const { ctx, reflector } = context({ headers: { authorization: `Bearer ${student}` } });
    expect(await kindOf(() => guard(reflector, versionsOf(new Map([[3, 1]]))).canActivate(ctx))).toBe('unauthenticated');
    expect(await kindOf(() => guard(reflector, versionsOf(new Map())).canActivate(ctx))).toBe('unauthenticated');
  });
});

describe('TokenVersions', () => {
  it('reads through its cache for the configured time only', async () => {
    const accounts = new Map([[3, 0]]);
    const cached = versionsOf(accounts, 60_000);
    const uncached = versionsOf(accounts, 0);
    await expect(cached.current(3)).resolves.toBe(0);
    accounts.set(3, 1);
    await expect(cached.current(3)).resolves.toBe(0);
    await expect(uncached.current(3)).resolves.toBe(1);
  });
});

describe('AccessTokenAuthenticator reads', () => {
  const student = tokens.signAccess({ id: 3, email: 's@x.test', role: 'student' }, { sid: SID, ver: 0 });
  const req = { headers: { authorization: `Bearer ${student}` } };

  function setup(liveInStore = true) {
    const cfg = { tokenVersionCacheMs: 60_000 } as AuthConfig;
    const findAccount = jest.fn(async (id: number) => ({ user: { id, email: 'x', firstname: '', lastname: '', role: 'student' as const }, tokenVersion: 0 }));
    const familyLive = jest.fn(async () => liveInStore);
    const versions = new TokenVersions({ findCredentials: async () => null, upgradePasswordHash: async () => false, findAccount }, cfg);
    const sessions = new SessionFamilies({ familyLive }, cfg);
    const accessState = jest.fn(async () => ({ tokenVersion: 0, familyLive: liveInStore }));
    return { auth: new AccessTokenAuthenticator(tokens, versions, sessions, { accessState }), findAccount, familyLive, accessState, versions, sessions };
  }

  it('reads token version and session in one round trip when neither is cached, then nothing while both are', async () => {
    const s = setup();
    await expect(s.auth.authenticate(req)).resolves.toMatchObject({ id: 3, sid: SID });
    await expect(s.auth.authenticate(req)).resolves.toMatchObject({ id: 3 });
    expect(s.accessState).toHaveBeenCalledTimes(1);
    expect(s.findAccount).not.toHaveBeenCalled();
    expect(s.familyLive).not.toHaveBeenCalled();
  });

  it('reads only what is missing when one of the two is cached', async () => {
    const s = setup();
    s.sessions.issued(SID); // this replica issued the session (login): live without a read
    await s.auth.authenticate(req);
    expect(s.findAccount).toHaveBeenCalledTimes(1);
    expect(s.accessState).not.toHaveBeenCalled();
    expect(s.familyLive).not.toHaveBeenCalled();
  });

  it('an ended session found by the one read stays ended on this replica', async () => {
    const s = setup(false);
    expect(await kindOf(() => s.auth.authenticate(req))).toBe('unauthenticated');
    expect(s.sessions.peek(SID)).toBe(false);
  });
});
