import type { AuthConfig } from './auth.config';

/** When a cached access state was read, and whether every later change to it would have reached us. */
export interface TrustedEntry {
  readAt: number;
  /** Read while this process heard every committed change, and no change arrived while the read was in flight. */
  heard: boolean;
}

/**
 * How long the access-state caches (TokenVersions, SessionFamilies) may use what they read.
 *
 * Without change notifications an entry lasts tokenVersionCacheMs: the longest an account change or
 * a logout made on another replica waits to hold here. While this process hears PostgreSQL's change
 * notifications (ACCESS_STATE_CHANGES, watched by AccessStateWatcher) every change drops its entry
 * at once, so an entry may last notifiedCacheMs — unless its read was in flight when some change
 * arrived (its snapshot may predate that change): such an entry keeps the short bound. Losing the
 * notifications empties the caches (AccessStateWatcher) and brings the short bound back.
 */
export class AccessStateTrust {
  /** Since when every change reaches this process; null while not listening. */
  private hearingSince: number | null = null;
  private lastChangeAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly cfg: Pick<AuthConfig, 'tokenVersionCacheMs'> & Partial<Pick<AuthConfig, 'notifiedCacheMs'>>) {}

  /** False when nothing may be cached (tokenVersionCacheMs 0: every request reads). */
  get caches(): boolean {
    return this.cfg.tokenVersionCacheMs > 0;
  }

  /** The entry for a value whose read started at `readAt`. */
  entry(readAt: number): TrustedEntry {
    return { readAt, heard: this.hearingSince !== null && readAt >= this.hearingSince && readAt > this.lastChangeAt };
  }

  /** Whether `entry` may still be used at `now`. */
  fresh(entry: TrustedEntry, now = Date.now()): boolean {
    const heard = entry.heard && this.hearingSince !== null && entry.readAt >= this.hearingSince;
    return now - entry.readAt < (heard ? (this.cfg.notifiedCacheMs ?? 0) : this.cfg.tokenVersionCacheMs);
  }

  /** Every change from now on will be heard (listening, or listening again after a loss). */
  hearing(now = Date.now()): void {
    this.hearingSince = now;
  }

  /** A change was heard: reads in flight may predate it. */
  changed(now = Date.now()): void {
    this.lastChangeAt = now;
  }

  /** Changes may be missed from now on. */
  deaf(): void {
    this.hearingSince = null;
  }
}
