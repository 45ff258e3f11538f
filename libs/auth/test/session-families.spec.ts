/**
 * The login-session check of access tokens: a cached read of whether the
 * token's refresh-token family is still live; an end seen here is final and immediate.
 * A fake store counts the reads (unit test).
 */
import { TokenService } from '../src/jwt-tokens';
import { AccessTokenAuthenticator } from '../src/request-authenticators';
import { SessionFamilies } from '../src/session-families';

function storeOf(live: Set<string>) {
  const reads: string[] = [];
  return { reads, store: { familyLive: async (sid: string) => (reads.push(sid), live.has(sid)) } };
}

describe('SessionFamilies', () => {
  it('trusts a live read for the cache time; an ended session is refused at once and never read again', async () => {
    const live = new Set(['a', 'b']);
    const { reads, store } = storeOf(live);
    const sessions = new SessionFamilies(store, { tokenVersionCacheMs: 60_000 });
    await expect(sessions.isLive('a')).resolves.toBe(true);
    await expect(sessions.isLive('a')).resolves.toBe(true);
    expect(reads).toEqual(['a']);
    sessions.end('a'); // logout on this replica
    await expect(sessions.isLive('a')).resolves.toBe(false);
    live.delete('b'); // ended elsewhere, never read here before
    await expect(sessions.isLive('b')).resolves.toBe(false);
    live.add('b');
    await expect(sessions.isLive('b')).resolves.toBe(false);
    expect(reads).toEqual(['a', 'b']);
  });

  it('a session this replica just issued is live without a read; one it ended stays ended', async () => {
    const { reads, store } = storeOf(new Set());
    const sessions = new SessionFamilies(store, { tokenVersionCacheMs: 60_000 });
    sessions.issued('new-login');
    await expect(sessions.isLive('new-login')).resolves.toBe(true);
    sessions.end('gone');
    sessions.issued('gone');
    await expect(sessions.isLive('gone')).resolves.toBe(false);
    expect(reads).toEqual([]);
  });

  it('without a cache, every check reads', async () => {
    const { reads, store } = storeOf(new Set(['a']));
    const sessions = new SessionFamilies(store, { tokenVersionCacheMs: 0 });
    await sessions.isLive('a');
    await sessions.isLive('a');
    expect(reads).toEqual(['a', 'a']);
  });
});

describe('AccessTokenAuthenticator and the login session', () => {
  const tokens = new TokenService({ secret: 'unit-test-secret-0123456789', accessTtlSeconds: 60, refreshTtlSeconds: 60 });
  const versions = { current: async () => 0 };

  it('refuses a valid, unexpired access token whose session ended, saying what to do', async () => {
    const sessions = new SessionFamilies(storeOf(new Set(['live-sid'])).store, { tokenVersionCacheMs: 0 });
    const auth = new AccessTokenAuthenticator(tokens, versions, sessions);
    const bearer = (sid: string) => ({ headers: { authorization: `Bearer ${tokens.signAccess({ id: 3, email: 's@x.test', role: 'student' }, { sid, ver: 0 })}` } });
    await expect(auth.authenticate(bearer('live-sid'))).resolves.toMatchObject({ id: 3, sid: 'live-sid' });
    await expect(auth.authenticate(bearer('ended-sid'))).rejects.toMatchObject({ kind: 'unauthenticated', message: expect.stringMatching(/session has ended.*log in again/) });
  });
});
