/**
 * The database's announcements of access-state changes (migration access-state-notifications: a
 * revoked session, a changed or deleted account), heard on one listening connection per process
 * with pg-listen, which reconnects after a loss and listens again. The auth caches are told when
 * announcements may have been missed (the connection lost: `deaf`) and when every one is heard
 * again (`hearing`, once LISTEN is in place).
 */
import type { AccessStateChanges, AccessStateListener } from '@shellgrade/auth';
import createSubscriber, { type Subscriber } from 'pg-listen';

export const ACCESS_STATE_CHANNEL = 'sg_access_state';
/** The listening connections' name in pg_stat_activity. */
export const ACCESS_STATE_APPLICATION = 'shellgrade-access-state';

export interface AccessStateChangesOptions {
  databaseUrl: string;
  /** How often the idle connection is checked with a trivial query: the longest a silently dead one goes unnoticed. */
  checkEveryMs: number;
}

export class PgAccessStateChanges implements AccessStateChanges {
  private subscriber: Subscriber | undefined;
  private closed = false;

  constructor(private readonly options: AccessStateChangesOptions) {}

  /** Listens; a failure (now, or pg-listen giving up a reconnection) is retried on a timer that never keeps the process alive. */
  async watch(listener: AccessStateListener): Promise<void> {
    try {
      await this.subscribe(listener);
    } catch (err) {
      this.subscribeLater(listener);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.subscriber?.close();
  }

  private async subscribe(listener: AccessStateListener): Promise<void> {
    const subscriber = createSubscriber(
      { connectionString: this.options.databaseUrl, application_name: ACCESS_STATE_APPLICATION },
      {
        parse: (payload) => payload, // 'account:<id>', 'session:<uuid>' or 'all', not JSON
        paranoidChecking: this.options.checkEveryMs,
        retryTimeout: GIVE_UP_MS, // then 'error': subscribeLater's timer takes over
        retryInterval: (attempt) => Math.min(100 * 2 ** attempt, 2_000),
      },
    );
    this.subscriber = subscriber;
    let listening = false;
    subscriber.notifications.on(ACCESS_STATE_CHANNEL, (payload: string) => tell(listener, payload));
    subscriber.events.on('reconnect', (attempt) => {
      if (attempt === 1) listener.deaf(); // the first attempt follows the loss at once
    });
    // pg-listen's close() ends the connection it has then, not one a reconnection in flight makes
    // after it (with its liveness check, which would keep the process alive): ended as it comes.
    const end = () => void subscriber.close().catch(() => undefined);
    subscriber.events.on('connected', () => {
      if (this.closed) end();
      else if (listening) listener.hearing(); // after a reconnection: pg-listen has listened again
    });
    subscriber.events.on('error', () => {
      end(); // pg-listen gave the reconnection up: deaf until a fresh subscriber listens
      if (!this.closed) this.subscribeLater(listener);
    });
    try {
      await subscriber.connect();
      await subscriber.listenTo(ACCESS_STATE_CHANNEL);
    } catch (err) {
      end();
      throw err;
    }
    listening = true;
    listener.hearing();
  }

  private subscribeLater(listener: AccessStateListener): void {
    const again = () => {
      if (!this.closed) this.subscribe(listener).catch(() => this.subscribeLater(listener));
    };
    setTimeout(again, RESUBSCRIBE_MS).unref();
  }
}

/** How long pg-listen retries a lost connection before it gives up (its timers keep a process alive). */
const GIVE_UP_MS = 10_000;
/** Then, or after a failed first connection: a fresh subscriber every this often. */
const RESUBSCRIBE_MS = 5_000;

/** One announcement to the listener ('account:<id>', 'session:<family>', 'all'); anything unrecognised is ignored. */
function tell(listener: AccessStateListener, payload: string): void {
  const [kind, id] = payload.split(':', 2);
  if (kind === 'account' && /^\d+$/.test(id ?? '')) listener.account(Number(id));
  else if (kind === 'session' && id) listener.session(id);
  else if (payload === 'all') listener.all();
}
