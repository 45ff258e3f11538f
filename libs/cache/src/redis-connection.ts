import { Redis } from 'ioredis';
import { throttled } from './cache-metrics';

/** Where the cache's Redis is and how long it may take. */
export interface CacheRedisSettings {
  /** e.g. redis://127.0.0.1:56379 (REDIS_URL) */
  url: string;
  /** Longest wait for one command before the caller goes to PostgreSQL instead (spec: cacheCommandTimeoutMs). */
  commandTimeoutMs: number;
  connectTimeoutMs?: number;
  /** Prepended to every key (tests use a private one on the shared server). */
  keyPrefix?: string;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 1_000;
/** Reconnection back-off cap: a Redis that comes back is used again within this delay. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * The cache's own ioredis connection, set up to fail fast rather than wait: no offline queue
 * (a command while disconnected rejects at once instead of waiting for the reconnection), no
 * retry of a command cut by a disconnection, a short command timeout. It keeps reconnecting in
 * the background, so the cache resumes by itself when Redis is back.
 */
export class CacheRedisConnection {
  readonly client: Redis;

  constructor(settings: CacheRedisSettings, onError: (error: Error) => void = () => undefined) {
    this.client = new Redis(settings.url, {
      commandTimeout: settings.commandTimeoutMs,
      connectTimeout: settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(100 * attempt, MAX_RECONNECT_DELAY_MS),
      connectionName: 'shellgrade-context-cache',
      keyPrefix: settings.keyPrefix,
      // A socket that does not close by itself on disconnect is destroyed soon: shutdown is not held.
      disconnectTimeout: 200,
    });
    // Without a listener an unreachable Redis would crash the process ('error' is an EventEmitter error).
    this.client.on('error', onError);
  }

  /** Resolves true once connected, false after timeoutMs (never rejects: a service starts without its cache). */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.client.once('ready', onReady);
    });
  }

  /**
   * QUIT when connected (bounded), then stop reconnecting; resolves once the socket is closed
   * (status 'end'), or at once when there was no socket (Redis down: nothing to wait for).
   */
  async close(): Promise<void> {
    const hasSocket = ['connecting', 'connect', 'ready'].includes(this.client.status);
    const ended = new Promise<void>((resolve) => this.client.once('end', () => resolve()));
    if (this.client.status === 'ready') await withinMs(CLOSE_WAIT_MS, this.client.quit());
    this.client.disconnect();
    if (hasSocket) await withinMs(CLOSE_WAIT_MS, ended);
  }
}

const CLOSE_WAIT_MS = 1_000;

/** Waits for the promise at most ms; its rejection is ignored (closing is best effort). */
function withinMs(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work.then(() => undefined, () => undefined), bound]).finally(() => clearTimeout(timer));
}

/** The token the wiring binds the cache's connection to (one per process, closed at shutdown). */
export const CACHE_REDIS = Symbol('CacheRedisConnection');

/** How long a starting service waits for Redis before it starts without it (fail open). */
const STARTUP_WAIT_MS = 2_000;

/**
 * The connection a starting service uses: waits at most STARTUP_WAIT_MS for Redis, then goes on
 * without it (`warn` says so; the connection keeps trying in the background). Connection errors
 * are reported through `warn` at most once per 10 s.
 */
export async function connectCacheRedis(settings: CacheRedisSettings, warn: (line: string) => void): Promise<CacheRedisConnection> {
  const reportConnection = throttled(warn, 10_000);
  const connection = new CacheRedisConnection(settings, (error) => reportConnection(`redis ${settings.url}: ${error.message}`));
  if (!(await connection.whenReady(STARTUP_WAIT_MS))) {
    warn(`redis ${settings.url} not reachable at startup: submission contexts are read from PostgreSQL until it is`);
  }
  return connection;
}
