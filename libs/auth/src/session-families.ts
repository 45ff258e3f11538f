import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccessStateTrust, type TrustedEntry } from './access-state-trust';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { REFRESH_TOKEN_STORE, type RefreshTokenStore } from './ports';

/**
 * Whether a login session (refresh-token family, the access token's `sid`) is still live, read
 * through a per-process cache whose entries last as AccessStateTrust says (tokenVersionCacheMs, like
 * token versions; longer while change notifications are heard): logout or a reused refresh token
 * ends the family's access tokens at once on the replica that saw it or heard of it, and within
 * tokenVersionCacheMs on every other, without a database read per request.
 */
@Injectable()
export class SessionFamilies {
  /** sid → when it was read live. Ended sessions are kept apart: an end is final. */
  private readonly live = new Map<string, TrustedEntry>();
  private readonly ended = new Set<string>();
  private readonly trust: AccessStateTrust;

  constructor(
    @Inject(REFRESH_TOKEN_STORE) private readonly store: Pick<RefreshTokenStore, 'familyLive'>,
    @Inject(AUTH_CONFIG) cfg: Pick<AuthConfig, 'tokenVersionCacheMs' | 'notifiedCacheMs'>,
    @Optional() trust?: AccessStateTrust,
  ) {
    this.trust = trust ?? new AccessStateTrust(cfg);
  }

  async isLive(sid: string): Promise<boolean> {
    const cached = this.peek(sid);
    if (cached !== undefined) return cached;
    const readAt = Date.now();
    const live = await this.store.familyLive(sid);
    this.record(sid, live, readAt);
    return live;
  }

  /** What is known without a read (false: ended here), or undefined when it must be read. */
  peek(sid: string): boolean | undefined {
    if (this.ended.has(sid)) return false;
    const hit = this.live.get(sid);
    return hit && this.trust.fresh(hit) ? true : undefined;
  }

  /** Whether the session was found live by a read started at `readAt` elsewhere (with the token version, in one round trip). */
  record(sid: string, live: boolean, readAt = Date.now()): void {
    if (live) this.remember(sid, readAt);
    else this.end(sid);
  }

  /** This replica just issued tokens of the session (login, refresh): live, no read needed for the cache time. */
  issued(sid: string): void {
    if (!this.ended.has(sid)) this.remember(sid, Date.now());
  }

  /** The session ended (logout or reuse here, or a notification of one elsewhere): refused here from now on. */
  end(sid: string): void {
    this.live.delete(sid);
    if (this.ended.size >= MAX_ENTRIES) this.ended.clear(); // forgetting only costs a read
    this.ended.add(sid);
  }

  /** Changes may have been missed: every live session is read again (an end stays final). */
  forgetLive(): void {
    this.live.clear();
  }

  private remember(sid: string, readAt: number): void {
    if (!this.trust.caches) return;
    if (this.live.size >= MAX_ENTRIES) this.live.clear();
    this.live.set(sid, this.trust.entry(readAt));
  }
}

/** Bounds each cache's memory; clearing it only costs one read per active session. */
const MAX_ENTRIES = 100_000;
