import jwt from 'jsonwebtoken';
import { DomainError } from '@shellgrade/domain';
import { TokenService } from '../src/jwt-tokens';

const cfg = { secret: 'unit-test-secret-0123456789', accessTtlSeconds: 60, refreshTtlSeconds: 3600 };
const tokens = new TokenService(cfg);
const user = { id: 7, email: 'a@b.test', role: 'teacher' as const };
const stamp = { sid: '6f1f7c4e-0000-4000-8000-000000000001', ver: 3 };

function expectUnauthenticated(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unauthenticated');
    return;
  }
  throw new Error('expected DomainError(unauthenticated)');
}

describe('TokenService', () => {
  it('round-trips an access token', () => {
    expect(tokens.verifyAccess(tokens.signAccess(user, stamp))).toEqual({ ...user, ...stamp });
  });

  it('round-trips a refresh token with a unique jti and an expiry', () => {
    const a = tokens.signRefresh(7);
    const b = tokens.signRefresh(7);
    expect(tokens.verifyRefresh(a.token)).toEqual({ userId: 7, jti: a.jti, familyId: a.familyId });
    // A new login starts a family; a rotation stays in it.
    expect(b.familyId).not.toEqual(a.familyId);
    expect(tokens.verifyRefresh(tokens.signRefresh(7, a.familyId).token).familyId).toBe(a.familyId);
    expect(a.jti).not.toEqual(b.jti);
    expect(a.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3500 * 1000);
  });

  it('signs plain HS256 with the configured secret: tokens of a process holding the secret as text verify here, and the reverse', () => {
    const byText = jwt.sign({ typ: 'access', email: user.email, role: user.role, ...stamp }, cfg.secret, { algorithm: 'HS256', issuer: 'shellgrade', subject: '7', expiresIn: 60 });
    expect(tokens.verifyAccess(byText)).toEqual({ ...user, ...stamp });
    expect(jwt.verify(tokens.signAccess(user, stamp), cfg.secret, { algorithms: ['HS256'] })).toMatchObject({ sub: '7', sid: stamp.sid });
    expectUnauthenticated(() => new TokenService({ ...cfg, secret: 'another-secret-0123456789' }).verifyAccess(byText));
  });

  it('does not accept a refresh token as an access token, nor the reverse', () => {
    expectUnauthenticated(() => tokens.verifyAccess(tokens.signRefresh(7).token));
    expectUnauthenticated(() => tokens.verifyRefresh(tokens.signAccess(user, stamp)));
  });

  it('rejects another secret, a tampered token, "none" algorithm and garbage', () => {
    const other = new TokenService({ ...cfg, secret: 'another-secret-0123456789' });
    expectUnauthenticated(() => tokens.verifyAccess(other.signAccess(user, stamp)));
    const [h, , s] = tokens.signAccess(user, stamp).split('.');
    const forged = Buffer.from(JSON.stringify({ typ: 'access', email: 'x', role: 'admin', sub: '1', iss: 'shellgrade' })).toString('base64url');
    expectUnauthenticated(() => tokens.verifyAccess(`${h}.${forged}.${s}`));
    const unsigned = jwt.sign({ typ: 'access', email: 'x', role: 'admin' }, '', { algorithm: 'none', subject: '1', issuer: 'shellgrade' });
    expectUnauthenticated(() => tokens.verifyAccess(unsigned));
    expectUnauthenticated(() => tokens.verifyAccess('not.a.jwt'));
  });

  it('rejects an expired token', () => {
    const expired = jwt.sign({ typ: 'access', email: 'a@b.test', role: 'student', exp: Math.floor(Date.now() / 1000) - 10 }, cfg.secret, {
      subject: '7',
      issuer: 'shellgrade',
    });
    expectUnauthenticated(() => tokens.verifyAccess(expired));
  });

  it('rejects an unknown role', () => {
    const bad = jwt.sign({ typ: 'access', email: 'a@b.test', role: 'root' }, cfg.secret, { subject: '7', issuer: 'shellgrade' });
    expectUnauthenticated(() => tokens.verifyAccess(bad));
  });

  it('names the session of an access token even once expired, never of a forged one', () => {
    const expired = jwt.sign({ typ: 'access', email: 'a@b.test', role: 'student', sid: stamp.sid, ver: 0, exp: Math.floor(Date.now() / 1000) - 10 }, cfg.secret, {
      subject: '7',
      issuer: 'shellgrade',
    });
    expect(tokens.sessionOfAccess(expired)).toBe(stamp.sid);
    const other = new TokenService({ ...cfg, secret: 'another-secret-0123456789' });
    expect(tokens.sessionOfAccess(other.signAccess(user, stamp))).toBeUndefined();
    expect(tokens.sessionOfAccess(tokens.signRefresh(7).token)).toBeUndefined();
  });
});
