import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccessStateTrust, type TrustedEntry } from './access-state-trust';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { CREDENTIAL_STORE, type CredentialStore } from './ports';

/**
 * The current token version of each account, read through a per-process cache whose entries last
 * as AccessStateTrust says (tokenVersionCacheMs; longer while change notifications are heard): a
 * role change or a deleted account holds within that delay on every replica, long before an access
 * token expires, without a database read per request.
 */
@Injectable()
export class TokenVersions {
  private readonly cache = new Map<number, TrustedEntry & { version: number | null }>();
  private readonly trust: AccessStateTrust;

  constructor(
    @Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore,
    @Inject(AUTH_CONFIG) cfg: AuthConfig,
    @Optional() trust?: AccessStateTrust,
  ) {
    this.trust = trust ?? new AccessStateTrust(cfg);
  }

  /** The account's current version, or null once it is deleted. */
  async current(userId: number): Promise<number | null> {
    const cached = this.peek(userId);
    if (cached !== undefined) return cached;
    const readAt = Date.now();
    const version = (await this.credentials.findAccount(userId))?.tokenVersion ?? null;
    this.remember(userId, version, readAt);
    return version;
  }

  /** The cached version (null: deleted), or undefined when it must be read. */
  peek(userId: number): number | null | undefined {
    const hit = this.cache.get(userId);
    return hit && this.trust.fresh(hit) ? hit.version : undefined;
  }

  /** A version read elsewhere (a login, a refresh, with the session in one round trip), by a read started at `readAt`. */
  remember(userId: number, version: number | null, readAt = Date.now()): void {
    if (!this.trust.caches) return;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(userId, { version, ...this.trust.entry(readAt) });
  }

  /** The account changed (a notification): the next request reads it. */
  forget(userId: number): void {
    this.cache.delete(userId);
  }

  /** Changes may have been missed: every account is read again. */
  forgetAll(): void {
    this.cache.clear();
  }
}

/** Bounds the cache's memory; clearing it all only costs one read per active account. */
const MAX_ENTRIES = 100_000;
