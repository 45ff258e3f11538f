/**
 * Who may read a service's operational surfaces (/health detail, /metrics, /docs, the console's
 * /ops): a caller with an explicit credential — the installation's scrape token, or (for /ops)
 * a staff account, see web-app.ts — or a loopback caller that came straight to the service.
 * A network position is no credential: a private-range (10/8, 172.16/12,
 * 192.168/16) caller is refused like any other, and a request relayed by a proxy
 * (X-Forwarded-For, Forwarded) comes from the outside, whatever the proxy's own address.
 *
 * A loopback socket alone is no proof either: any web page can rebind its own name to 127.0.0.1
 * (DNS rebinding) and have the visitor's browser read what this machine's loopback callers may.
 * The browser still says which site it thinks it talks to, in the Host header, so the loopback
 * credential holds only for a Host that names this machine: localhost, a loopback address
 * (127.0.0.1, [::1]; an address literal is resolved by no DNS, so nothing rebinds it), with or
 * without a port, or a name the installation configures (SG_OPS_HOST_NAMES). A loopback caller
 * naming another site is answered 404 on every operational surface, as if they did not exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import { problem, type ProblemSink, sendProblem } from './problem';
import { pathOf } from './request-path';

/** `internal`: operational surfaces by credential or loopback only; `public`: for anyone (development). The spec's `http.opsAccess` chooses. */
export type OpsAccess = 'internal' | 'public';

/** The explicit credentials an operator presents to the operational surfaces. */
export interface OpsCredentials {
  /** The installation's scrape token (run/secrets.json `scrapeToken`, env SG_SCRAPE_TOKEN), sent as `Authorization: Bearer <token>`. */
  scrapeToken?: string;
  /** Names besides localhost and the loopback addresses by which this machine's callers reach it (Host header, port aside). */
  hostNames?: readonly string[];
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  return loopback.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
}

/** `name`, `name:port`, `[v6]`, `[v6]:port`: the name part of a Host header, lower-cased; undefined when it is none of these. */
function hostName(host: string): string | undefined {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]\s]+))(?::\d{1,5})?$/i.exec(host);
  return m ? (m[1] ?? m[2])!.toLowerCase() : undefined;
}

/**
 * Whether a Host header names this machine: localhost, a loopback address, or one of `names`. An
 * absent Host names nothing to rebind (every browser sends one; HAProxy's health checks do not).
 */
export function namesThisMachine(host: string | undefined, names: readonly string[] = []): boolean {
  if (host === undefined) return true;
  const name = hostName(host.trim());
  if (name === undefined) return false;
  return name === 'localhost' || isLoopbackAddress(name) || names.some((n) => n.toLowerCase() === name);
}

/** Came over loopback, straight to the service (no proxy's X-Forwarded-For or Forwarded). */
function cameOverLoopbackDirectly(req: IncomingMessage): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return isLoopbackAddress(req.socket.remoteAddress);
}

/** A caller on this machine that reached the service directly (not through HAProxy or the gateway), addressing it by one of its names. */
export function isLoopbackDirectRequest(req: IncomingMessage, hostNames: readonly string[] = []): boolean {
  return cameOverLoopbackDirectly(req) && namesThisMachine(req.headers.host, hostNames);
}

/** What a page whose name was rebound to 127.0.0.1 sends: a loopback socket, and a Host naming another site. */
export function isReboundRequest(req: IncomingMessage, hostNames: readonly string[] = []): boolean {
  return cameOverLoopbackDirectly(req) && !namesThisMachine(req.headers.host, hostNames);
}

/** Requests whose credential the gate checked (the handlers behind it read this, not the headers again). */
const credentialed = new WeakSet<IncomingMessage>();

/** Marks a request as carrying an operator credential (the gate, or the console's staff check). */
export function grantOps(req: IncomingMessage): void {
  credentialed.add(req);
}

/** Whether this request may see operational detail under `access`. */
export const mayReadOps = (req: IncomingMessage, access: OpsAccess): boolean => access === 'public' || credentialed.has(req) || isLoopbackDirectRequest(req);

/** Whether the request presents the scrape token (constant-time: the comparison says nothing about a near miss). */
export function presentsScrapeToken(req: IncomingMessage, scrapeToken: string | undefined): boolean {
  if (!scrapeToken) return false;
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!presented) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(scrapeToken));
}

/** Every operational surface: the gate recognises a credential on them (the router matches paths case-insensitively, so do we). */
const OPS_SURFACES = /^\/(metrics|docs|health|ops)(\/|-json|-yaml|$)/i;
/** Hidden entirely from a caller without access; /health stays public (load balancers) with its detail trimmed, /ops is refused by its own handler. */
const HIDDEN_SURFACES = /^\/(metrics|docs)(\/|-json|-yaml|$)/i;

/**
 * Connect-style middleware: recognises the scrape token and the loopback credential (with the
 * configured host names) on the operational surfaces, and answers /metrics and /docs with 404
 * problem+json to callers that may not read them (as if absent: nothing to probe). /health stays
 * public for load balancers; its detail is trimmed by its handler (ObservabilityModule). A loopback
 * caller naming another site (DNS rebinding) gets 404 on every operational surface, /health and
 * /ops included: no load balancer or operator of ours calls this machine by a stranger's name.
 */
export function opsEndpointsGate(access: OpsAccess, credentials: OpsCredentials = {}) {
  const hostNames = credentials.hostNames ?? [];
  return (req: IncomingMessage & { path?: string }, res: ProblemSink, next: () => void): void => {
    const path = req.path ?? pathOf(req.url ?? '/'); // (a bare request, in front of Express, has no req.path)
    if (access === 'public' || !OPS_SURFACES.test(path)) return next();
    if (presentsScrapeToken(req, credentials.scrapeToken)) grantOps(req);
    else if (isReboundRequest(req, hostNames)) return sendProblem(res, problem(404, 'not found'));
    else if (isLoopbackDirectRequest(req, hostNames)) grantOps(req);
    if (!HIDDEN_SURFACES.test(path) || mayReadOps(req, access)) return next();
    sendProblem(res, problem(404, 'not found'));
  };
}
