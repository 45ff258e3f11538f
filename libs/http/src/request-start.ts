/**
 * `X-Request-Start: t=<epoch>` — the de-facto header (Heroku, New Relic) a front proxy adds
 * with the time a request entered the system, so services behind it can budget their waits
 * from that moment. Accepts seconds, milliseconds or microseconds (told apart by magnitude);
 * anything else is ignored. Callers clamp what they derive from it: a client can only shorten
 * its own wait.
 */
export const REQUEST_START_HEADER = 'x-request-start';

export function formatRequestStart(epochMs: number): string {
  return `t=${Math.round(epochMs)}`;
}

export function parseRequestStart(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const match = raw ? /^\s*(?:t=)?(\d{9,16})(?:\.\d+)?\s*$/.exec(raw) : null;
  if (!match) return undefined;
  const n = Number(match[1]);
  if (n >= 1e14) return Math.floor(n / 1000); // microseconds
  if (n >= 1e11) return n; // milliseconds
  return n * 1000; // seconds
}
