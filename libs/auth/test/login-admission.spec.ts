/**
 * A bounded password check (spec admission.maxLogins*): a login beyond the gate gets
 * 503 + Retry-After before any scrypt work and does not count as a failed login; an admitted one
 * frees its place whatever the outcome. Stub stores and a hand-made gate (unit test).
 */
import { Test } from '@nestjs/testing';
import { DomainError, LOGIN_ADMISSION, type LoginAdmission } from '@shellgrade/domain';
import { AuthService } from '../src/auth.service';
import { AUTH_CONFIG, type AuthConfig } from '../src/auth.config';
import { hashPassword } from '../src/password';
import { CREDENTIAL_STORE, REFRESH_TOKEN_STORE, type CredentialStore, type RefreshTokenStore } from '../src/ports';
import { RateLimits } from '../src/rate-limits';
import { TokenService } from '../src/jwt-tokens';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';

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

/** The stub stores and services AuthService needs, and what they saw. */
async function stubs() {
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
  const cfg = { kdfCost: 1 } as AuthConfig;
  const sessions = new SessionFamilies({ familyLive: async () => true }, cfg);
  return { tokens, credentials, refreshTokens, cfg, limits, sessions, failures, reads };
}

async function service(admission: LoginAdmission) {
  const s = await stubs();
  return { auth: new AuthService(s.tokens, s.credentials, s.refreshTokens, s.cfg, s.limits, s.sessions, new TokenVersions(s.credentials, s.cfg), admission), failures: s.failures, reads: s.reads };
}

/** AuthService as Nest builds it in a process: the gate is whatever the composition root bound to LOGIN_ADMISSION. */
async function nestService(admission: LoginAdmission | undefined): Promise<AuthService> {
  const s = await stubs();
  const moduleRef = await Test.createTestingModule({
    providers: [
      AuthService,
      { provide: TokenService, useValue: s.tokens },
      { provide: CREDENTIAL_STORE, useValue: s.credentials },
      { provide: REFRESH_TOKEN_STORE, useValue: s.refreshTokens },
      { provide: AUTH_CONFIG, useValue: s.cfg },
      { provide: RateLimits, useValue: s.limits },
      { provide: SessionFamilies, useValue: s.sessions },
      { provide: TokenVersions, useValue: new TokenVersions(s.credentials, s.cfg) },
      ...(admission ? [{ provide: LOGIN_ADMISSION, useValue: admission }] : []),
    ],
  }).compile();
  return moduleRef.get(AuthService);
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

describe('login admission through dependency injection', () => {
  it('AuthService is handed the gate the composition root bound to LOGIN_ADMISSION; none bound: every login admitted', async () => {
    const bound = await nestService(gate(0));
    await expect(bound.login('a@b.c', 'right password', '127.0.0.1')).rejects.toMatchObject({ kind: 'unavailable', retryAfterSeconds: 3 });
    const unbound = await nestService(undefined);
    expect((await unbound.login('a@b.c', 'right password', '127.0.0.1')).accessToken).toBe('a');
  });
});
