/**
 * A bounded password check (spec admission.maxLogins*, issue 21): a login beyond the gate gets
 * 503 + Retry-After before any scrypt work and does not count as a failed login; an admitted one
 * frees its place whatever the outcome. Stub stores and a hand-made gate (unit test).
 */
import { DomainError, type LoginAdmission } from '@shellgrade/domain';
import { AuthService } from '../src/auth.service';
import type { AuthConfig } from '../src/auth.config';
import { hashPassword } from '../src/password';
import type { CredentialStore, RefreshTokenStore } from '../src/ports';
import type { RateLimits } from '../src/rate-limits';
import type { TokenService } from '../src/jwt-tokens';
import { SessionFamilies } from '../src/session-families';

function gate(places: number) {
  let inside = 0;
  const g: LoginAdmission & { inside: () => number } = {
    enter: () => {
      if (inside >= places) throw new DomainError('unavailable', 'the server is busy: try again in 3 s', { reason: 'overloaded' }, 3);
      inside++;
      return { release: () => void inside-- };
    },
    inside: () => inside,
  };
  return g;
}

async function service(admission: LoginAdmission) {
  const passwordHash = await hashPassword('right password', 1);
  const account = { user: { id: 7, email: 'a@b.c', role: 'student' }, tokenVersion: 0, passwordHash };
  const failures: string[] = [];
  const reads: string[] = [];
  const credentials = { findCredentials: async (email: string) => (reads.push(email), account), findAccount: async () => account } as unknown as CredentialStore;
  const refreshTokens = { insert: async () => undefined } as unknown as RefreshTokenStore;
  const tokens = { signRefresh: () => ({ token: 'r', jti: 'j', familyId: 'f', expiresAt: new Date() }), signAccess: () => 'a' } as unknown as TokenService;
  // Keeps a point only for a wrong password, as RateLimits.attemptLogin does (a thrown 503 gives it back).
  const attemptLogin = async (email: string, _client: string, check: () => Promise<unknown>) => {
    const found = await check();
    if (found === undefined) failures.push(email);
    return found;
  };
  const limits = { attemptLogin } as unknown as RateLimits;
  const cfg = { kdfCost: 1, loginAdmission: admission } as AuthConfig;
  const sessions = new SessionFamilies({ familyLive: async () => true }, cfg);
  return { auth: new AuthService(tokens, credentials, refreshTokens, cfg, limits, sessions), failures, reads };
}

describe('login admission', () => {
  it('refuses a login beyond the gate with 503 + Retry-After before reading the account, not counted as a failed login', async () => {
    const full = gate(0);
    const { auth, failures, reads } = await service(full);
    await expect(auth.login('a@b.c', 'right password', '127.0.0.1')).rejects.toMatchObject({ kind: 'unavailable', retryAfterSeconds: 3 });
    expect(failures).toEqual([]);
    // Refusing stays cheap: not even the account is read.
    expect(reads).toEqual([]);
  });

  it('frees the place of an admitted login, right or wrong', async () => {
    const one = gate(1);
    const { auth, failures } = await service(one);
    expect((await auth.login('a@b.c', 'right password', '127.0.0.1')).accessToken).toBe('a');
    await expect(auth.login('a@b.c', 'wrong password', '127.0.0.1')).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(failures).toEqual(['a@b.c']);
    expect(one.inside()).toBe(0);
  });
});
