/**
 * The HTTP body limit, derived from the one archive limit (issue 22 item 10), so the two never
 * disagree: the largest acceptable archive always fits, anything much larger is cut by the
 * body parser (413) before it is buffered. The SPA's JSON submission spells archive byte i as
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
 * The JSON limit of every other route (issue 34 item 8): logins, enrolments, edits. Parsing
 * happens before authentication, so this is what anyone may make a service buffer and parse.
 * The largest such body a schema accepts is a bulk enrolment (10,000 ids of up to 10 digits,
 * ~108 KiB): it must fit.
 */
export const SMALL_JSON_LIMIT_BYTES = 128 * 1024;

/**
 * The routes whose JSON carries an archive and gets bodyLimitFor: the submission (the SPA's byte
 * map) and the authoring routes (an exercise's or a statement's base64 question archive).
 */
const ARCHIVE_JSON_ROUTES = /^\/api\/(exercise-production|exercises?|student-statements?)(\/|$)/i;

export const carriesArchiveJson = (path: string): boolean => ARCHIVE_JSON_ROUTES.test(path);
