/**
 * A timestamp as the API sends it (ISO 8601, UTC) — what JSON.stringify made of a Date before the
 * views were typed by the contract; null stays null (a timestamp not set yet). Accepts a string
 * too: an adapter that hands one over untyped gets the same answer, not a crash.
 */
export function isoTime(t: Date | string): string;
export function isoTime(t: Date | string | null): string | null;
export function isoTime(t: Date | string | null): string | null {
  return t === null ? null : new Date(t).toISOString();
}
