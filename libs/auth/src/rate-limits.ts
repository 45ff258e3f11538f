/**
 * The rate limits of issue 22 item 7, on rate-limiter-flexible (memory or Redis counters).
 * Exceeding one answers 429 problem+json with Retry-After (DomainError 'rate-limited').
 * A Redis store that cannot be reached falls back to per-process counters (insurance limiter):
 * a cache outage must not lock every student out, nor disable the limits.
 * An attempt whose check is costly (a password, an enrolment key) takes its point BEFORE the
 * check and gets it back on success (issue 34 item 3): counting only after the check let N
 * concurrent guesses all be checked against an allowance of 10.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from '@shellgrade/domain';
import type { AttemptLimits } from './ports';
import type { RateLimitConfig, RateWindow } from './rate-limits.config';

type Counter = 'login-account' | 'login-client' | 'enrolment-key' | 'submission' | 'trial';

/** Counter name → window, so every limiter is built the same way. */
function windows(cfg: RateLimitConfig): Record<Counter, RateWindow> {
  return {
    'login-account': cfg.loginFailuresPerAccount,
    'login-client': cfg.loginFailuresPerClient,
    'enrolment-key': cfg.enrolmentKeyFailuresPerUser,
    submission: cfg.submissionsPerStudent,
    trial: cfg.trialsPerAuthor,
  };
}

const WHY: Record<Counter, string> = {
  'login-account': 'too many failed logins for this account: wait before trying again',
  'login-client': 'too many failed logins for this account from your address: wait before trying again',
  'enrolment-key': 'too many wrong enrolment keys: wait before trying again',
  submission: 'too many submissions',
  trial: 'too many grader trials: wait before trying again',
};

/** One point of one counter: what an attempt takes before its check. */
interface Point {
  counter: Counter;
  key: string;
}

export class RateLimits implements AttemptLimits {
  private readonly limiters: Record<Counter, RateLimiterAbstract> | null;
  private readonly redis: Redis | null;

  constructor(cfg: RateLimitConfig) {
    this.redis = cfg.enabled && cfg.store === 'redis' ? new Redis(requireUrl(cfg), { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
    this.limiters = cfg.enabled ? build(windows(cfg), this.redis) : null;
  }

  /**
   * Runs one password check (`check`: the account when the password is right, else undefined)
   * under the login limits. The account's point and the client+account point are taken BEFORE
   * the check (429 when either is spent: no password is checked), so concurrent guesses cannot
   * all pass a check that counts them only afterwards; both are given back unless the password
   * was wrong (a right one, or an error such as a 503, is not a failed guess). The client bucket is
   * keyed on client + account: a spent one never locks another account out of that client.
   */
  async attemptLogin<T>(email: string, client: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const account = accountKey(email);
    const points: Point[] = [
      { counter: 'login-account', key: account },
      { counter: 'login-client', key: `${client}|${account}` },
    ];
    return this.guarded(points, check, (found) => found === undefined);
  }

  /** One enrolment-key check under the user's limit, taken before the check and given back unless the key was wrong. */
  async attemptEnrolmentKey(userId: number, check: () => Promise<boolean>): Promise<boolean> {
    return this.guarded([{ counter: 'enrolment-key', key: String(userId) }], check, (right) => !right);
  }

  /**
   * Takes an enrolment-key point before the key is checked (429 when spent). For callers that do
   * not give it back on success (the point of a right key stays spent): attemptEnrolmentKey does.
   */
  async checkEnrolmentKey(userId: number): Promise<void> {
    await this.take([{ counter: 'enrolment-key', key: String(userId) }]);
  }

  /** The point was taken by checkEnrolmentKey, before the check: nothing more to count. */
  async enrolmentKeyFailed(_userId: number): Promise<void> {
    return;
  }

  /** Counts one submission of the student; 429 beyond the window's allowance. */
  async submission(userId: number): Promise<void> {
    await this.take([{ counter: 'submission', key: String(userId) }]);
  }

  /**
   * Gives back the submission a student was refused with 503 + Retry-After (admission control):
   * the student did as told and comes back; the refused attempt must not spend the allowance.
   */
  async refundSubmission(userId: number): Promise<void> {
    await this.giveBack([{ counter: 'submission', key: String(userId) }]);
  }

  /** Counts one grader trial of an exercise's author; 429 beyond the window's allowance. */
  async trial(authorId: number): Promise<void> {
    await this.take([{ counter: 'trial', key: String(authorId) }]);
  }

  /** Resolves once the Redis store is connected (at once for the memory store); until then the insurance limiter counts. */
  async ready(): Promise<void> {
    if (!this.redis || this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => this.redis!.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  /** Takes the points, runs the check, and keeps the points only when `failed` says the check failed. */
  private async guarded<T>(points: Point[], check: () => Promise<T>, failed: (outcome: T) => boolean): Promise<T> {
    const taken = await this.take(points);
    let keep = false;
    try {
      const outcome = await check();
      keep = failed(outcome);
      return outcome;
    } finally {
      if (!keep) await this.giveBack(taken);
    }
  }

  /**
   * Takes one point of each counter (at once: one store round trip, not one per counter); when
   * one is spent, gives back every point this attempt took (the refused one included: a refused
   * attempt was never checked) and answers 429. A store error leaves that point untaken: the
   * insurance limiter already answered for Redis.
   */
  private async take(points: Point[]): Promise<Point[]> {
    const counted = points.filter((p) => this.limiters?.[p.counter]);
    const outcomes = await Promise.allSettled(counted.map((p) => this.limiters![p.counter].consume(p.key)));
    const taken = counted.filter((_, i) => outcomes[i]!.status === 'fulfilled');
    const refusals = counted.flatMap((point, i) => {
      const outcome = outcomes[i]!;
      return outcome.status === 'rejected' && outcome.reason instanceof RateLimiterRes ? [{ point, res: outcome.reason }] : [];
    });
    if (refusals.length === 0) return taken;
    await this.giveBack([...taken, ...refusals.map((r) => r.point)]);
    throw rateLimited(WHY[refusals[0]!.point.counter], retryAfter(refusals[0]!.res));
  }

  private async giveBack(points: Point[]): Promise<void> {
    await Promise.all(points.map((p) => this.limiters?.[p.counter].reward(p.key, 1).catch(() => undefined)));
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
