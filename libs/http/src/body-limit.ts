/**
 * How much JSON a service reads and parses, and when. Parsing is synchronous: a body of megabytes
 * holds the event loop for a noticeable time, so the large limits apply only once the request is
 * authenticated (json-bodies.ts), and before that a body is bounded by what a login needs.
 *
 * The archive routes' limit is derived from the one archive limit (bodyLimitFor), so the two never
 * disagree: the largest acceptable archive always fits, anything much larger is cut by the body
 * parser (413) before it is buffered. The SPA's JSON submission spells archive byte i as
 * `"i":value,` — the digits of i, 2 quotes, a colon, up to 3 digits and a comma — which is the
 * costliest encoding we accept (a byte array needs 4, base64 4/3).
 */
/** Room for the other fields (ids, names, statements) of a request. */
const FIELDS_ALLOWANCE_BYTES = 64 * 1024;

export function bodyLimitFor(maxArchiveBytes: number): number {
  const indexDigits = String(Math.max(0, maxArchiveBytes - 1)).length;
  return maxArchiveBytes * (indexDigits + 7) + FIELDS_ALLOWANCE_BYTES;
}

/**
 * What anyone may make a service read and parse before it knows who calls: a login (an email and
 * a password of at most ~1.3 KiB) with a wide margin, and the console's small requests.
 */
export const PRE_AUTH_JSON_LIMIT_BYTES = 64 * 1024;

/**
 * The JSON limit of an authenticated request on a route without an archive (edits, enrolments).
 * The largest such body a schema accepts is a bulk enrolment (10,000 ids of up to 10 digits,
 * ~108 KiB): it must fit.
 */
export const SMALL_JSON_LIMIT_BYTES = 128 * 1024;

/**
 * The routes whose JSON carries an archive and gets bodyLimitFor once authenticated: the
 * submission (the SPA's byte map) and the authoring routes (an exercise's or a statement's base64
 * question archive).
 */
const ARCHIVE_JSON_ROUTES = /^\/api\/(exercise-production|exercises?|student-statements?)(\/|$)/i;

export const carriesArchiveJson = (path: string): boolean => ARCHIVE_JSON_ROUTES.test(path);

/** A size as a person reads it: 64 KiB, 14.7 MiB. */
export function readableSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}
