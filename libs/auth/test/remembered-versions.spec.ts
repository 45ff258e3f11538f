/**
 * A login, a refresh and a reissue each read the account's token version: they leave it in the
 * process's cache (TokenVersions), so the session's next request reads nothing, and a reissue after
 * an account change makes the fresh token good here at once (not refused as outdated by a cached
 * older version until the change is heard). Stub stores; over HTTP and real PostgreSQL:
 * libs/api/test/auth/access-state-notifications.int.ts.
 */
import { AuthService } from '../src/auth.service';
import type { AuthConfig } from '../src/auth.config';
import { TokenService } from '../src/jwt-tokens';
import { hashPassword } from '../src/password';
import type { CredentialStore, RefreshTokenStore } from '../src/ports';
import type { RateLimits } from '../src/rate-limits';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';

async function service() {
  const account = { user: { id: 7, email: 'a@b.c', firstname: 'A', lastname: 'B', role: 'student' as const }, tokenVersion: 4, passwordHash: await hashPassword('pw', 1) };
  const credentials = { findCredentials: async () => account, findAccount: async () => account } as unknown as CredentialStore;
  const refreshTokens = {
    insert: async () => undefined,
    rotate: async () => ({ outcome: 'rotated', account: { user: account.user, tokenVersion: account.tokenVersion } }),
  } as unknown as RefreshTokenStore;
  const cfg = { kdfCost: 1, tokenVersionCacheMs: 5_000 } as AuthConfig;
  const tokens = new TokenService({ secret: 'remembered-versions-secret-0123', accessTtlSeconds: 900, refreshTtlSeconds: 3600 });
  const limits = { attemptLogin: async (_e: string, _c: string, check: () => Promise<unknown>) => check() } as unknown as RateLimits;
  const versions = new TokenVersions(credentials, cfg);
  const auth = new AuthService(tokens, credentials, refreshTokens, cfg, limits, new SessionFamilies({ familyLive: async () => true }, cfg), versions);
  return { auth, account, versions };
}

describe('the token version a session request just read is remembered', () => {
  it('login', async () => {
    const { auth, versions } = await service();
    await auth.login('a@b.c', 'pw', '127.0.0.1');
    expect(versions.peek(7)).toBe(4);
  });

  it('refresh', async () => {
    const { auth, versions } = await service();
    const { refreshToken } = await auth.login('a@b.c', 'pw', '127.0.0.1');
    versions.forget(7);
    await auth.refresh(refreshToken);
    expect(versions.peek(7)).toBe(4);
  });

  it('reissue after an account change: the new version replaces the cached one', async () => {
    const { auth, account, versions } = await service();
    await auth.login('a@b.c', 'pw', '127.0.0.1');
    account.tokenVersion = 5; // the change (a password change moved the version)
    await auth.reissueAccess(7, 'sid');
    expect(versions.peek(7)).toBe(5);
  });
});
