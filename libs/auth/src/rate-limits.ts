/**
 * The rate limits on logins and enrolment keys, so passwords and keys cannot be guessed at speed,
 * on rate-limiter-flexible (memory or Redis counters).
 * Exceeding one answers 429 problem+json with Retry-After (DomainError 'rate-limited').
 * A Redis store that cannot be reached falls back to per-process counters (insurance limiter):
 * a cache outage must not lock every student out, nor disable the limits.
 * An attempt whose check is costly (a password, an enrolment key) takes its point BEFORE the
 * check and gets it back on success: counting only after the check let N
 * concurrent guesses all be checked against an allowance of 10.
 *
 * Who a failed login slows down (password spraying and lock-out, OWASP ASVS v4 §2.2.1):
 * - login-client (client + account): the client that keeps guessing one account;
 * - login-address (client, any account): an address that fails across many accounts, as a
 *   sprayer trying a few passwords on every email does (each of those checks burns a hash). It
 *   counts failures after the check and refuses once they fill the window (refuseIfSpent), so an
 *   address's honest logins in flight never count against it;
 * - login-account (account, any client): an account guessed from many addresses. It refuses only
 *   a client that has itself failed on this account in its window: a client that has not (the
 *   owner, from anywhere) still gets its password checked, so no stranger can lock an account
 *   (a spent account window used to refuse even the right password, from everyone, for as long
 *   as anyone kept failing). Each further address gets one guess at a hot account, and is
 *   bounded by its own address window across accounts. No known-device cookie is needed for
 *   that (OWASP's other answer); one would only spare an owner who mistyped during an attack.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from '@shellgrade/domain';
import type { AttemptLimits } from './ports';
import type { RateLimitConfig, RateWindow } from './rate-limits.config';

type Counter = 'login-account' | 'login-client' | 'login-address' | 'enrolment-key' | 'submission' | 'trial';

/** Counter name → window, so every limiter is built the same way. */
function windows(cfg: RateLimitConfig): Record<Counter, RateWindow> {
  return {
    'login-account': cfg.loginFailuresPerAccount,
    'login-client': cfg.loginFailuresPerClient,
    'login-address': cfg.loginFailuresPerAddress,
    'enrolment-key': cfg.enrolmentKeyFailuresPerUser,
    submission: cfg.submissionsPerStudent,
    trial: cfg.trialsPerAuthor,
  };
}

const WHY: Record<Counter, string> = {
  'login-account': 'too many failed logins for this account: wait before trying again',
  'login-client': 'too many failed logins for this account from your address: wait before trying again',
  'login-address': 'too many failed logins from your address, across accounts: wait before trying again',
  'enrolment-key': 'too many wrong enrolment keys: wait before trying again',
  submission: 'too many submissions',
  trial: 'too many grader trials: wait before trying again',
};

/** One point of one counter: what an attempt takes before its check. */
interface Point {
  counter: Counter;
  key: string;
}

/** One taken point's counter after the take: its key's state (this point included) and whether it went over the allowance. */
interface Tally {
  point: Point;
  res: RateLimiterRes;
  over: boolean;
}

/** Which over-allowance tally refuses an attempt, if any. */
type Refusal = (tallies: Tally[]) => Tally | undefined;

/** Any counter over its allowance refuses. */
const firstOver: Refusal = (tallies) => tallies.find((t) => t.over);

/**
 * The login rule: any counter over its allowance refuses, except the account's, which refuses
 * only a client that has failed on this account before in its window (its client + account
 * point is not its first). A client whose client + account tally is missing (a store error)
 * is treated as having failed: the account keeps its allowance then.
 */
const loginRefusal: Refusal = (tallies) => {
  const client = tallies.find((t) => t.point.counter === 'login-client');
  const failedHereBefore = client === undefined || client.res.consumedPoints > 1;
  return tallies.find((t) => t.over && (t.point.counter !== 'login-account' || failedHereBefore));
};

export class RateLimits implements AttemptLimits {
  private readonly limiters: Record<Counter, RateLimiterAbstract> | null;
  private readonly redis: Redis | null;

  constructor(cfg: RateLimitConfig) {
    this.redis = cfg.enabled && cfg.store === 'redis' ? new Redis(requireUrl(cfg), { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
    this.limiters = cfg.enabled ? build(windows(cfg), this.redis) : null;
  }

  /**
   * Runs one password check (`check`: the account when the password is right, else undefined)
   * under the login limits. Its points are taken BEFORE the check (429 when one refuses: no
   * password is checked), so concurrent guesses cannot all pass a check that counts them only
   * afterwards; they are given back unless the password was wrong (a right one, or an error such
   * as a 503, is not a failed guess). Which spent counter refuses whom: loginRefusal and the
   * header of this file. The client bucket is keyed on client + account: a spent one never locks
   * another account out of that client.
   */
  async attemptLogin<T>(email: string, client: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const account = accountKey(email);
    const points: Point[] = [
      { counter: 'login-client', key: `${client}|${account}` },
      { counter: 'login-account', key: account },
    ];
    const address: Point = { counter: 'login-address', key: client };
    await this.refuseIfSpent(address);
    const found = await this.guarded(points, check, (outcome) => outcome === undefined, loginRefusal);
    if (found === undefined) await this.count(address);
    return found;
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
  private async guarded<T>(points: Point[], check: () => Promise<T>, failed: (outcome: T) => boolean, refusal: Refusal = firstOver): Promise<T> {
    const taken = await this.take(points, refusal);
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
   * `refusal` picks a counter over its allowance, gives back every point this attempt took (the
   * refused one included: a refused attempt was never checked) and answers 429 with that
   * counter's reason and wait. A store error leaves that point untaken: the insurance limiter
   * already answered for Redis.
   */
  private async take(points: Point[], refusal: Refusal = firstOver): Promise<Point[]> {
    const counted = points.filter((p) => this.limiters?.[p.counter]);
    const outcomes = await Promise.allSettled(counted.map((p) => this.limiters![p.counter].consume(p.key)));
    // A consume over the allowance still counted its point (rate-limiter-flexible increments, then rejects).
    const tallies = counted.flatMap((point, i): Tally[] => {
      const outcome = outcomes[i]!;
      if (outcome.status === 'fulfilled') return [{ point, res: outcome.value, over: false }];
      return outcome.reason instanceof RateLimiterRes ? [{ point, res: outcome.reason, over: true }] : [];
    });
    const taken = tallies.map((t) => t.point);
    const refused = refusal(tallies);
    if (!refused) return taken;
    await this.giveBack(taken);
    throw rateLimited(WHY[refused.point.counter], retryAfter(refused.res));
  }

  /**
   * 429 when the counter's failures already fill its allowance, without taking a point. For the
   * address window: a point taken before the check would count the address's logins in flight,
   * and a class behind one address (a lab's NAT, a load test) logging in at once would be refused
   * with no password wrong. Concurrent sprayers can overshoot by what is in flight at once, which
   * the login admission gate bounds.
   */
  private async refuseIfSpent(point: Point): Promise<void> {
    const limiter = this.limiters?.[point.counter];
    const res = await limiter?.get(point.key).catch(() => null);
    if (limiter && res && res.consumedPoints >= limiter.points) throw rateLimited(WHY[point.counter], retryAfter(res));
  }

  /** Counts one failure after the check (never refuses: the attempt is over). */
  private async count(point: Point): Promise<void> {
    await this.limiters?.[point.counter].penalty(point.key, 1).catch(() => undefined);
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
