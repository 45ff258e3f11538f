/**
 * The HTTP body limit, derived from the one archive limit (issue 22 item 10). The SPA's JSON
 * submission spells each archive byte as `"index":value,` (up to 7 + 3 + 4 characters for a
 * 1 MiB archive), so a JSON body may be ~14× the archive; base64 JSON (question archives) is
 * 4/3 of it. A body past this bound cannot hold an acceptable archive.
 */
export const JSON_BYTES_PER_ARCHIVE_BYTE = 16;
/** Room for the other fields (ids, names, statements) of a request. */
const FIELDS_ALLOWANCE_BYTES = 64 * 1024;

export function bodyLimitFor(maxArchiveBytes: number): number {
  return maxArchiveBytes * JSON_BYTES_PER_ARCHIVE_BYTE + FIELDS_ALLOWANCE_BYTES;
}
