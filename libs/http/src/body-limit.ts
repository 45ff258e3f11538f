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
