import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { REFRESH_TOKEN_STORE, type RefreshTokenStore } from './ports';

/**
 * Whether a login session (refresh-token family, the access token's `sid`) is still live, read
 * through a short per-process cache (AuthConfig.tokenVersionCacheMs, like token versions): logout
 * or a reused refresh token ends the family's access tokens at once on the replica that saw it,
 * and within that delay on every other, without a database read per request.
 */
@Injectable()
export class SessionFamilies {
  /** sid → when it was read live. Ended sessions are kept apart: an end is final. */
  private readonly live = new Map<string, number>();
  private readonly ended = new Set<string>();

  constructor(
    @Inject(REFRESH_TOKEN_STORE) private readonly store: Pick<RefreshTokenStore, 'familyLive'>,
    @Inject(AUTH_CONFIG) private readonly cfg: Pick<AuthConfig, 'tokenVersionCacheMs'>,
  ) {}

  async isLive(sid: string): Promise<boolean> {
    const cached = this.peek(sid);
    if (cached !== undefined) return cached;
    const live = await this.store.familyLive(sid);
    this.record(sid, live);
    return live;
  }

  /** What is known without a read (false: ended here), or undefined when it must be read. */
  peek(sid: string): boolean | undefined {
    if (this.ended.has(sid)) return false;
    const readAt = this.live.get(sid);
    return readAt !== undefined && Date.now() - readAt < this.cfg.tokenVersionCacheMs ? true : undefined;
  }

  /** Whether the session was found live by a read made elsewhere (with the token version, in one round trip). */
  record(sid: string, live: boolean): void {
    if (live) this.remember(this.live, sid, Date.now());
    else this.end(sid);
  }

  /** This replica just issued tokens of the session (login, refresh): live, no read needed for the cache time. */
  issued(sid: string): void {
    if (!this.ended.has(sid)) this.remember(this.live, sid, Date.now());
  }

  /** This replica ended the session (logout, reuse detected): refused here from now on. */
  end(sid: string): void {
    this.live.delete(sid);
    if (this.ended.size >= MAX_ENTRIES) this.ended.clear(); // forgetting only costs a read
    this.ended.add(sid);
  }

  private remember(cache: Map<string, number>, sid: string, at: number): void {
    if (this.cfg.tokenVersionCacheMs <= 0) return;
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(sid, at);
  }
}

/** Bounds each cache's memory; clearing it only costs one read per active session. */
const MAX_ENTRIES = 100_000;
