import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { AccessStateTrust } from './access-state-trust';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { ACCESS_STATE_CHANGES, type AccessStateChanges } from './ports';
import { SessionFamilies } from './session-families';
import { TokenVersions } from './token-versions';

/**
 * Keeps this process's access-state caches in step with the database's change notifications
 * (ACCESS_STATE_CHANGES, when the process has one and notifiedCacheMs > 0): a change drops its
 * entry, a lost connection empties the caches, and AccessStateTrust learns whether every change is
 * heard (which lets an entry last notifiedCacheMs instead of tokenVersionCacheMs).
 */
@Injectable()
export class AccessStateWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(AccessStateWatcher.name);
  private watching = false;
  private lost = false;

  constructor(
    private readonly trust: AccessStateTrust,
    private readonly versions: TokenVersions,
    private readonly sessions: SessionFamilies,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
    @Optional() @Inject(ACCESS_STATE_CHANGES) private readonly changes?: AccessStateChanges,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.changes || !this.trust.caches || (this.cfg.notifiedCacheMs ?? 0) <= 0) return;
    this.watching = true;
    try {
      await this.changes.watch({
        account: (userId) => {
          this.trust.changed();
          this.versions.forget(userId);
        },
        session: (familyId) => {
          this.trust.changed();
          this.sessions.end(familyId);
        },
        all: () => {
          this.trust.changed();
          this.forgetAll();
        },
        hearing: () => {
          this.trust.hearing();
          if (this.lost) this.log.log('hearing access-state changes again');
          this.lost = false;
        },
        deaf: () => {
          this.trust.deaf();
          this.forgetAll();
          this.lost = true;
          this.log.warn(`lost the access-state notifications (reconnecting): cached for ${this.cfg.tokenVersionCacheMs} ms meanwhile`);
        },
      });
    } catch (err) {
      // Not hearing changes only costs reads: the caches keep the short bound.
      this.log.warn(`not listening to access-state changes (${(err as Error).message}): cached for ${this.cfg.tokenVersionCacheMs} ms only`);
    }
  }

  private forgetAll(): void {
    this.versions.forgetAll();
    this.sessions.forgetLive();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.watching) await this.changes!.close();
  }
}
