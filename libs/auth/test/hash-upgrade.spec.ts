/**
 * A login replaces a matched hash of an older scheme (scrypt) by the secure default (argon2id),
 * and never fails because of it. Stub stores (unit test); real PostgreSQL:
 * libs/api/test/auth/password-upgrade.int.ts.
 */
import { AuthService } from '../src/auth.service';
import type { AuthConfig } from '../src/auth.config';
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword, verifyPassword } from '../src/password';
import type { CredentialStore, RefreshTokenStore } from '../src/ports';
import type { RateLimits } from '../src/rate-limits';
import type { TokenService } from '../src/jwt-tokens';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';

/** stored: the cost the account's hash was made at, or the hash itself. */
async function service(kdfCost: number, stored: number | string, upgrade: (id: number, from: string, to: string) => Promise<boolean>) {
  const passwordHash = typeof stored === 'string' ? stored : await hashPassword('right password', stored);
  const account = { user: { id: 7, email: 'a@b.c', role: 'student' }, tokenVersion: 0, passwordHash };
  const credentials = { findCredentials: async () => account, findAccount: async () => account, upgradePasswordHash: upgrade } as unknown as CredentialStore;
  const refreshTokens = { insert: async () => undefined } as unknown as RefreshTokenStore;
  const tokens = { signRefresh: () => ({ token: 'r', jti: 'j', familyId: 'f', expiresAt: new Date() }), signAccess: () => 'a' } as unknown as TokenService;
  const limits = { attemptLogin: async (_e: string, _c: string, check: () => Promise<unknown>) => check() } as unknown as RateLimits;
  const cfg = { kdfCost } as AuthConfig;
  const sessions = new SessionFamilies({ familyLive: async () => true }, cfg);
  return { auth: new AuthService(tokens, credentials, refreshTokens, cfg, limits, sessions, new TokenVersions(credentials, cfg)), passwordHash };
}

describe('hash upgrade at login', () => {
  it('a good login with a scrypt hash stores an argon2id hash of the same password, in place of that very hash', async () => {
    const upgrades: [number, string, string][] = [];
    const { auth, passwordHash } = await service(14, 4, async (...args) => (upgrades.push(args), true));
    await auth.login('a@b.c', 'right password', '127.0.0.1');
    expect(upgrades).toHaveLength(1);
    const [id, from, to] = upgrades[0]!;
    expect([id, from]).toEqual([7, passwordHash]);
    expect(to).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    await expect(verifyPassword('right password', to)).resolves.toBe(true);
  });

  it('a wrong password, an up-to-date hash or a paper-faithful cost upgrades nothing', async () => {
    const upgrades: unknown[] = [];
    const record = async (...args: unknown[]) => (upgrades.push(args), true);
    await expect((await service(14, 4, record)).auth.login('a@b.c', 'wrong', '127.0.0.1')).rejects.toMatchObject({ kind: 'unauthenticated' });
    await (await service(14, 14, record)).auth.login('a@b.c', 'right password', '127.0.0.1');
    await (await service(1, 4, record)).auth.login('a@b.c', 'right password', '127.0.0.1');
    expect(upgrades).toEqual([]);
  });

  it('an argon2id hash of another OWASP row (19 MiB × 2, the default before) is of equal strength: its logins upgrade nothing', async () => {
    const upgrades: unknown[] = [];
    const before = await argon2Hash('right password', { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const { auth } = await service(14, before, async (...args) => (upgrades.push(args), true));
    await auth.login('a@b.c', 'right password', '127.0.0.1');
    await auth.login('a@b.c', 'right password', '127.0.0.1');
    expect(upgrades).toEqual([]);
  });

  it('a failed upgrade (store down) still logs in: the old hash stays valid', async () => {
    const { auth } = await service(14, 4, async () => {
      throw new Error('database down');
    });
    await expect(auth.login('a@b.c', 'right password', '127.0.0.1')).resolves.toMatchObject({ accessToken: 'a' });
  });
});
