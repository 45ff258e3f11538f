/**
 * `X-Request-Start: t=<epoch>` — the de-facto header (Heroku, New Relic) a front proxy adds
 * with the time a request entered the system, so services behind it can budget their waits
 * from that moment. Accepts seconds, milliseconds or microseconds (told apart by magnitude);
 * anything else is ignored.
 *
 * Believed only from the variant's own proxies: the arrival sets a submission's answer deadline,
 * so a client writing the header itself could exempt its work from load shedding (a future time)
 * or have it refused as expired (a past one). From anyone else the arrival is when this process
 * received the request; from a proxy it is kept within [received − budget, received].
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

/** The proxies whose stamp is believed, by the peer's address (@shellgrade/auth TrustedProxies fits). */
export interface RequestStartProxies {
  trusts(address: string): boolean;
}

export interface StampedRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
}

/** Whether the request's X-Request-Start may be believed: it came straight from one of `proxies`. */
export function fromTrustedProxy(req: StampedRequest, proxies: RequestStartProxies): boolean {
  const peer = req.socket.remoteAddress;
  return peer !== undefined && proxies.trusts(peer);
}

/**
 * When `req` entered the system (epoch ms): a trusted proxy's stamp, clamped to
 * [receivedAt − budgetMs, receivedAt] (a stamp older than the answer budget means the client has
 * stopped waiting, never more; none is in the future); `receivedAt`, this process's own arrival
 * time, for any other peer or without a readable stamp. No budget: only the upper bound.
 */
export function requestArrivalOf(req: StampedRequest, receivedAt: number, opts: { proxies: RequestStartProxies; budgetMs?: number }): number {
  const stamped = fromTrustedProxy(req, opts.proxies) ? parseRequestStart(req.headers[REQUEST_START_HEADER]) : undefined;
  if (stamped === undefined) return receivedAt;
  const earliest = opts.budgetMs === undefined ? Number.NEGATIVE_INFINITY : receivedAt - opts.budgetMs;
  return Math.min(Math.max(stamped, earliest), receivedAt);
}

/**
 * The X-Request-Start a proxy forwards: the stamp of a trusted proxy in front when it has a
 * readable one, else its own arrival time (a client's header is replaced, never passed on).
 */
export function forwardedRequestStart(req: StampedRequest, arrivedAt: number, proxies: RequestStartProxies): string {
  const header = req.headers[REQUEST_START_HEADER];
  const kept = fromTrustedProxy(req, proxies) && parseRequestStart(header) !== undefined;
  return kept ? (Array.isArray(header) ? header[0]! : header!) : formatRequestStart(arrivedAt);
}
