/**
 * The rate limits of issue 22 item 7, on rate-limiter-flexible (memory or Redis counters).
 * Exceeding one answers 429 problem+json with Retry-After (DomainError 'rate-limited').
 * A Redis store that cannot be reached falls back to per-process counters (insurance limiter):
 * a cache outage must not lock every student out, nor disable the limits.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from '@shellgrade/domain';
import type { RateLimitConfig, RateWindow } from './rate-limits.config';

type Counter = 'login-account' | 'login-client' | 'enrolment-key' | 'submission';

/** Counter name → window, so every limiter is built the same way. */
function windows(cfg: RateLimitConfig): Record<Counter, RateWindow> {
  return {
    'login-account': cfg.loginFailuresPerAccount,
    'login-client': cfg.loginFailuresPerClient,
    'enrolment-key': cfg.enrolmentKeyFailuresPerUser,
    submission: cfg.submissionsPerStudent,
  };
}

const WHY: Record<Counter, string> = {
  'login-account': 'too many failed logins for this account',
  'login-client': 'too many failed logins from this client',
  'enrolment-key': 'too many wrong enrolment keys',
  submission: 'too many submissions',
};

export class RateLimits {
  private readonly limiters: Record<Counter, RateLimiterAbstract> | null;
  private readonly redis: Redis | null;

  constructor(cfg: RateLimitConfig) {
    this.redis = cfg.enabled && cfg.store === 'redis' ? new Redis(requireUrl(cfg), { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
    this.limiters = cfg.enabled ? build(windows(cfg), this.redis) : null;
  }

  /** Refuses a login while the account or the client has used up its failures. */
  async checkLogin(email: string, client: string): Promise<void> {
    await this.refuseIfSpent('login-account', accountKey(email));
    await this.refuseIfSpent('login-client', client);
  }

  /** Counts a failed login against the account and the client. */
  async loginFailed(email: string, client: string): Promise<void> {
    await this.count('login-account', accountKey(email));
    await this.count('login-client', client);
  }

  /** A successful login clears the account's failures (not the client's). */
  async loginSucceeded(email: string): Promise<void> {
    await this.limiters?.['login-account'].delete(accountKey(email)).catch(() => false);
  }

  async checkEnrolmentKey(userId: number): Promise<void> {
    await this.refuseIfSpent('enrolment-key', String(userId));
  }

  async enrolmentKeyFailed(userId: number): Promise<void> {
    await this.count('enrolment-key', String(userId));
  }

  /** Counts one submission of the student; 429 beyond the window's allowance. */
  async submission(userId: number): Promise<void> {
    await this.count('submission', String(userId), true);
  }

  /**
   * Gives back the submission a student was refused with 503 + Retry-After (admission control):
   * the student did as told and comes back; the refused attempt must not spend the allowance.
   */
  async refundSubmission(userId: number): Promise<void> {
    await this.limiters?.submission.reward(String(userId), 1).catch(() => undefined);
  }

  /** Resolves once the Redis store is connected (at once for the memory store); until then the insurance limiter counts. */
  async ready(): Promise<void> {
    if (!this.redis || this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => this.redis!.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private async refuseIfSpent(counter: Counter, key: string): Promise<void> {
    const limiter = this.limiters?.[counter];
    if (!limiter) return;
    const res = await limiter.get(key).catch(() => null);
    if (res && res.consumedPoints >= limiter.points) throw rateLimited(WHY[counter], retryAfter(res));
  }

  /** Counts one attempt; `refuseOver` answers 429 for the attempt that goes past the allowance. */
  private async count(counter: Counter, key: string, refuseOver = false): Promise<void> {
    const limiter = this.limiters?.[counter];
    if (!limiter) return;
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return; // store error: the insurance limiter already answered
      if (refuseOver) throw rateLimited(WHY[counter], retryAfter(rejection));
    }
  }
}

function build(all: Record<Counter, RateWindow>, redis: Redis | null): Record<Counter, RateLimiterAbstract> {
  const limiters = {} as Record<Counter, RateLimiterAbstract>;
  for (const name of Object.keys(all) as Counter[]) {
    const opts = { keyPrefix: `sg-rl:${name}`, points: all[name].points, duration: all[name].durationS };
    const memory = new RateLimiterMemory(opts);
    limiters[name] = redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory }) : memory;
  }
  return limiters;
}

const accountKey = (email: string) => email.trim().toLowerCase();
const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

function requireUrl(cfg: RateLimitConfig): string {
  if (!cfg.redisUrl) throw new Error('rate limits: store "redis" needs redisUrl');
  return cfg.redisUrl;
}
