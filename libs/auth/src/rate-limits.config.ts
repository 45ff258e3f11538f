/**
 * Rate-limit settings. Their defaults live in the variant spec
 * (`auth.rateLimits`, libs/variant/src/spec.ts); libs/wiring's authConfigOf maps them here.
 *
 * Login and enrolment limits keep the points of FAILED attempts only (each attempt takes its
 * point before the check and gives it back on success), so a load test that logs in thousands
 * of seeded students from one loopback client (k6) is never throttled by them; the submission
 * limit counts every submission of one student (the paper profile reuses each seeded student
 * about every 10 s, i.e. ~6 per minute). Benchmark variants may still turn everything off
 * with `enabled: false`, so that no limit can ever shape a measurement.
 */
export interface RateWindow {
  /** Attempts allowed per window. */
  points: number;
  /** Window length in seconds (fixed window, starting at the first counted attempt). */
  durationS: number;
}

export interface RateLimitConfig {
  enabled: boolean;
  /** `memory` (one process) or `redis` (counters shared by every replica: multi-replica variants). */
  store: 'memory' | 'redis';
  /** Redis for `store: redis` (REDIS_URL). */
  redisUrl?: string;
  /**
   * Failed logins of one account, from any client (password guessing against one student). Once
   * spent it refuses only the clients that have failed on that account themselves: a client that
   * has not is still checked, so strangers cannot lock the owner out.
   */
  loginFailuresPerAccount: RateWindow;
  /**
   * Failed logins of one account from one client address (as seen through the variant's own
   * proxies). Keyed on client + account, so one account's spent bucket never locks another
   * account out of a shared address (a lab, a NAT, a proxy).
   */
  loginFailuresPerClient: RateWindow;
  /**
   * Failed logins from one client address, whatever the account (password spraying: a few
   * passwords tried on many emails, each check a costly hash). Everyone behind one address (a lab's
   * NAT) shares it: its allowance must cover that class's typos.
   */
  loginFailuresPerAddress: RateWindow;
  /** Wrong enrolment keys tried by one user. */
  enrolmentKeyFailuresPerUser: RateWindow;
  /** Submissions of one student. */
  submissionsPerStudent: RateWindow;
  /** Grader trials (POST /api/exercise-trial) of one exercise author. */
  trialsPerAuthor: RateWindow;
  /** Grader trials running at once in one process (its slot budget: 503 + Retry-After beyond it), kept even with `enabled: false`. */
  trialsInFlight: number;
}
