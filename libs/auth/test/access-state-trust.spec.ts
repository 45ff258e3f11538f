/**
 * How long the access-state caches trust what they read (AccessStateTrust): tokenVersionCacheMs
 * without change notifications; notifiedCacheMs while every change is heard; never longer than
 * tokenVersionCacheMs for a read that was in flight when a change arrived.
 */
import { AccessStateTrust } from '../src/access-state-trust';
import type { AuthConfig } from '../src/auth.config';
import type { CredentialStore } from '../src/ports';
import { SessionFamilies } from '../src/session-families';
import { TokenVersions } from '../src/token-versions';

const cfg = { tokenVersionCacheMs: 5_000, notifiedCacheMs: 300_000 } as AuthConfig;

function caches(trust = new AccessStateTrust(cfg)) {
  const reads = { versions: 0, sessions: 0 };
  const credentials = { findAccount: async () => (reads.versions++, { tokenVersion: 3 }) } as unknown as CredentialStore;
  const versions = new TokenVersions(credentials, cfg, trust);
  const sessions = new SessionFamilies({ familyLive: async () => (reads.sessions++, true) }, cfg, trust);
  return { trust, versions, sessions, reads };
}

describe('AccessStateTrust', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('not hearing changes: an entry lasts tokenVersionCacheMs', async () => {
    const { versions, sessions, reads } = caches();
    await versions.current(7);
    sessions.issued('s');
    jest.advanceTimersByTime(4_999);
    expect(versions.peek(7)).toBe(3);
    expect(sessions.peek('s')).toBe(true);
    jest.advanceTimersByTime(1);
    expect(versions.peek(7)).toBeUndefined();
    expect(sessions.peek('s')).toBeUndefined();
    expect(reads.versions).toBe(1);
  });

  it('hearing every change: an entry lasts notifiedCacheMs, and a change heard ends it at once', async () => {
    const { trust, versions, sessions } = caches();
    trust.hearing();
    jest.advanceTimersByTime(1);
    await versions.current(7);
    sessions.issued('s');
    jest.advanceTimersByTime(299_998);
    expect(versions.peek(7)).toBe(3);
    expect(sessions.peek('s')).toBe(true);
    versions.forget(7);
    sessions.end('s');
    expect(versions.peek(7)).toBeUndefined();
    expect(sessions.peek('s')).toBe(false);
  });

  it('a read in flight when a change arrives keeps the short bound (its snapshot may predate the change)', async () => {
    const { trust, versions } = caches();
    trust.hearing();
    jest.advanceTimersByTime(1);
    const readAt = Date.now();
    trust.changed(); // heard while the read below was in flight
    jest.advanceTimersByTime(1);
    versions.remember(7, 3, readAt);
    jest.advanceTimersByTime(4_998);
    expect(versions.peek(7)).toBe(3);
    jest.advanceTimersByTime(1);
    expect(versions.peek(7)).toBeUndefined();
  });

  it('deaf: what was read while hearing falls back to the short bound, and entries read before hearing never had the long one', async () => {
    const { trust, versions } = caches();
    versions.remember(1, 0); // before hearing
    trust.hearing();
    jest.advanceTimersByTime(1);
    versions.remember(2, 0);
    jest.advanceTimersByTime(5_000);
    expect(versions.peek(1)).toBeUndefined();
    expect(versions.peek(2)).toBe(0);
    trust.deaf();
    expect(versions.peek(2)).toBeUndefined();
  });

  it('tokenVersionCacheMs 0 caches nothing, notifications or not', async () => {
    const trust = new AccessStateTrust({ tokenVersionCacheMs: 0, notifiedCacheMs: 300_000 });
    const { versions, sessions, reads } = caches(trust);
    trust.hearing();
    jest.advanceTimersByTime(1);
    await versions.current(7);
    await versions.current(7);
    sessions.issued('s');
    expect(reads.versions).toBe(2);
    expect(sessions.peek('s')).toBeUndefined();
  });
});
