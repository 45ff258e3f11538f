/**
 * Typed domain failures. Transport layers map `kind` to an HTTP status (libs/http);
 * nothing below the transport ever throws a bare string or an HTTP exception.
 */
export type DomainErrorKind =
  | 'validation' // 400: malformed request
  | 'unauthenticated' // 401
  | 'forbidden' // 403 (role, deadline passed)
  | 'not-found' // 404
  | 'conflict' // 409
  | 'too-large' // 413: archive or body over the limit
  | 'rate-limited' // 429: too many attempts; retry after retryAfterSeconds
  | 'invalid-archive' // 422: hostile, truncated or non-gzip archive
  | 'grading-failed' // 500: the grader crashed, printed garbage or timed out
  | 'unavailable' // 503: a dependency is down or a bounded queue is full
  | 'upstream-timeout'; // 504

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra machine-readable facts for the problem+json body. */
    readonly details: Record<string, unknown> = {},
    /** Seconds a client should wait before retrying (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, id: unknown) =>
  new DomainError('not-found', `${what} ${String(id)} does not exist`, { what, id });
export const forbidden = (why: string) => new DomainError('forbidden', why);
export const invalid = (why: string, details: Record<string, unknown> = {}) =>
  new DomainError('validation', why, details);
export const rateLimited = (why: string, retryAfterSeconds: number) =>
  new DomainError('rate-limited', why, { retry_after_s: retryAfterSeconds }, retryAfterSeconds);
