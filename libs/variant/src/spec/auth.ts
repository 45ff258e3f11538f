// The auth section: login sessions, password hashing cost, rate limits and where their counters
// live, the secret policy and the trusted proxies.
import { z } from 'zod';
import type { replicasSchema, Role } from './topology';
import { nonNegativeInt, positiveInt } from './values';

export const secretPolicies = ['auto', 'development', 'production'] as const;

/** A fixed window: `points` attempts per `durationS` seconds. */
export const rateWindowSchema = z.strictObject({
  points: positiveInt(),
  durationS: positiveInt('a positive number of seconds'),
});

/**
 * Rate limits (libs/auth, 429 + Retry-After). Login and enrolment limits count FAILED attempts
 * only, so a load test logging thousands of seeded students in from one client is never
 * throttled; the submission limit counts every submission (the paper profile: ~6/min/student).
 */
export const rateLimitsSchema = z.strictObject({
  /** false turns every limit off (e.g. so that no limit shapes a measurement). */
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  /**
   * Where counters live: memory (one process) or redis (REDIS_URL, shared by every replica).
   * Unset: per role (rateLimitStoreOf) — redis for a role that checks limits (monolith, leftover,
   * exercise) with more than one replica (else each replica would allow the limit again), memory
   * for a role with one: each counter is checked by one role only, so a single leftover keeps
   * exact login counters in memory while the exercise replicas share theirs.
   */
  store: z.enum(['memory', 'redis']).optional(),
  /**
   * Failed logins of one account, from any client (password guessing against one student). Spent,
   * it refuses only clients that failed on that account themselves: strangers cannot lock the owner out.
   */
  loginFailuresPerAccount: rateWindowSchema.default({ points: 10, durationS: 15 * 60 }),
  /** Failed logins of one account from one client address (keyed on client + account: a shared address never locks other accounts out). */
  loginFailuresPerClient: rateWindowSchema.default({ points: 100, durationS: 15 * 60 }),
  /** Failed logins from one client address across accounts (password spraying); a lab behind one NAT shares it. */
  loginFailuresPerAddress: rateWindowSchema.default({ points: 30, durationS: 15 * 60 }),
  /** Wrong enrolment keys tried by one user. */
  enrolmentKeyFailuresPerUser: rateWindowSchema.default({ points: 10, durationS: 15 * 60 }),
  /** Submissions of one student. */
  submissionsPerStudent: rateWindowSchema.default({ points: 30, durationS: 60 }),
  /** Grader trials (POST /api/exercise-trial) of one exercise author. */
  trialsPerAuthor: rateWindowSchema.default({ points: 30, durationS: 10 * 60 }),
  /** Grader trials running at once in one process: beyond, 503 + Retry-After (kept with enabled: false, it bounds the grader's load). */
  trialsInFlight: positiveInt().default(2),
});

export const authSchema = z.strictObject({
  accessTtlS: positiveInt().default(900),
  refreshTtlS: positiveInt().default(7 * 24 * 3600),
  /** Cost of new password hashes (libs/auth password.ts): 14 = argon2id at OWASP's level (m = 7 MiB, t = 5, p = 1: the least CPU per verify of the cheat sheet's five equal-strength settings); below 14, scrypt N = 2^kdfCost (1: the paper-faithful login cost). */
  kdfCost: positiveInt().max(20).default(14),
  /** Secure flag on cookies: true, false, or auto = when the request came over TLS (X-Forwarded-Proto https from a trusted proxy). */
  secureCookies: z.union([z.boolean(), z.literal('auto')], { error: "expected true, false or 'auto'" }).default('auto'),
  /** Path the refresh cookie is sent to: only the refresh routes, never every API call. */
  refreshCookiePath: z.string().regex(/^\//, { error: "expected a path starting with '/'" }).default('/api/auth'),
  /** How long a replica trusts an account's token version it read: the longest a role change or deletion waits to hold. */
  tokenVersionCacheMs: nonNegativeInt('a non-negative number of milliseconds').default(5_000),
  /**
   * How long a process trusts them while it hears PostgreSQL's notification of every change (a
   * logout, a role change or a deletion made by another process then holds here at once; a lost
   * connection falls back to tokenVersionCacheMs). 0: no listening connection. Ignored when
   * tokenVersionCacheMs is 0. Unset: notifiedCacheMsOf — on where another process authenticates.
   */
  notifiedCacheMs: nonNegativeInt('a non-negative number of milliseconds').optional(),
  /** Default secrets (SG_JWT_SECRET, database/broker/object-store credentials): development accepts them, production refuses them, auto = development only while listening on loopback. */
  secretPolicy: z.enum(secretPolicies).default('auto'),
  rateLimits: rateLimitsSchema.prefault({}),
  /**
   * The proxies whose X-Forwarded-For names the client that keys the per-client rate limits: IP
   * addresses, CIDR ranges or loopback / linklocal / uniquelocal. Unset: loopback for a process
   * that has the variant's own HAProxy or gateway in front of it (they run on loopback), none
   * otherwise (the peer is the client). Compose or Kubernetes deployments name their network here.
   */
  trustedProxies: z.array(z.string().min(1)).optional(),
});


/**
 * Where the rate-limit counters of one role live: the spec's store when it names one; else Redis
 * exactly when the role runs more than one replica. Each counter is checked by one role only —
 * logins and enrolment keys by the monolith or the leftover, submissions and trials by the
 * monolith or the exercise replicas — so one replica's memory counters are exact.
 */
export function rateLimitStoreOf(spec: { replicas: z.output<typeof replicasSchema>; auth: { rateLimits: { store?: 'memory' | 'redis' } } }, role: Role): 'memory' | 'redis' {
  if (spec.auth.rateLimits.store) return spec.auth.rateLimits.store;
  return role !== 'gateway' && (spec.replicas[role] ?? 0) > 1 ? 'redis' : 'memory';
}

/** notifiedCacheMs where the spec leaves it unset and another process authenticates against the database. */
export const NOTIFIED_CACHE_MS = 300_000;

/**
 * How long a process trusts a cached access state while it hears the database's change
 * notifications: the spec's value when it sets one; else NOTIFIED_CACHE_MS where more than one
 * process authenticates (a replicated monolith, MSA's leftover and exercise services), whose caches
 * would otherwise learn of a logout or a role change made elsewhere only after tokenVersionCacheMs,
 * and 0 (no listening connection) for a lone monolith, which makes every such change itself:
 * there, measured with `bench pg-statements`, each notification cost PostgreSQL more CPU than the
 * read it saved.
 */
export function notifiedCacheMsOf(spec: { replicas: z.output<typeof replicasSchema>; auth: { notifiedCacheMs?: number } }): number {
  if (spec.auth.notifiedCacheMs !== undefined) return spec.auth.notifiedCacheMs;
  const authenticating = (spec.replicas.monolith ?? 0) + (spec.replicas.leftover ?? 0) + (spec.replicas.exercise ?? 0);
  return authenticating > 1 ? NOTIFIED_CACHE_MS : 0;
}
