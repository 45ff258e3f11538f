import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { CREDENTIAL_STORE, type CredentialStore } from './ports';

/**
 * The current token version of each account, read through a short per-process cache
 * (AuthConfig.tokenVersionCacheMs): a role change or a deleted account holds within that delay
 * on every replica, long before an access token expires, without a database read per request.
 */
@Injectable()
export class TokenVersions {
  private readonly cache = new Map<number, { version: number | null; readAt: number }>();

  constructor(
    @Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
  ) {}

  /** The account's current version, or null once it is deleted. */
  async current(userId: number): Promise<number | null> {
    const cached = this.peek(userId);
    if (cached !== undefined) return cached;
    const version = (await this.credentials.findAccount(userId))?.tokenVersion ?? null;
    this.remember(userId, version);
    return version;
  }

  /** The cached version (null: deleted), or undefined when it must be read. */
  peek(userId: number): number | null | undefined {
    const hit = this.cache.get(userId);
    return hit && Date.now() - hit.readAt < this.cfg.tokenVersionCacheMs ? hit.version : undefined;
  }

  /** A version just read elsewhere (with the session, in one round trip). */
  remember(userId: number, version: number | null): void {
    if (this.cfg.tokenVersionCacheMs <= 0) return;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(userId, { version, readAt: Date.now() });
  }
}

/** Bounds the cache's memory; clearing it all only costs one read per active account. */
const MAX_ENTRIES = 100_000;
