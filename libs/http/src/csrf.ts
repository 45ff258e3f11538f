/**
 * Cross-site request forgery. A browser attaches the student's cookies to a
 * request another site makes it send; the API must tell those requests from its own pages'.
 * Unsafe methods (POST, PUT, PATCH, DELETE) are accepted when:
 *
 *  - the browser says the request came from this origin (`Sec-Fetch-Site: same-origin`) or
 *    from the user (`none`: typed, bookmarked) — every current browser sends Fetch Metadata;
 *  - or its `Origin` is this service's own (Host, or X-Forwarded-Host behind HAProxy / the
 *    gateway) or one of the configured CORS origins (a SPA served elsewhere);
 *  - or it carries neither header: not a browser (k6, curl, server-to-server).
 *
 * A request with a foreign `Origin` and no Fetch Metadata comes from an older browser or from a
 * tool imitating one (the paper's load test sends the original SPA's Origin). It is refused when
 * a page could have sent it cross-site without a CORS preflight — a form's POST (urlencoded or
 * text/plain); anything else needs a preflight, which CORS answers without permission for an
 * unlisted origin, so no browser sent it. Multipart posts from such browsers are left to the
 * cookies' SameSite=Lax.
 */
import type { IncomingMessage } from 'node:http';
import { problem, type ProblemSink, sendProblem } from './problem';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TRUSTED_SITES = new Set(['same-origin', 'none']);
/** What an HTML form (or a preflight-free fetch) can POST besides multipart. */
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|text\/plain)\b/i;

type Req = IncomingMessage & { method?: string };

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The listed CORS origins (never `*`: an origin allowed without credentials is no proof of anything). */
function listedOrigins(corsOrigins: string): Set<string> {
  return new Set(
    corsOrigins
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o && o !== '*'),
  );
}

/** Whether `origin` names the host the browser addressed: Host, or the first X-Forwarded-Host a proxy in front set. */
function isOwnOrigin(origin: string, req: IncomingMessage): boolean {
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false; // `null` (sandboxed frames, some redirects) or garbage
  }
  const forwarded = header(req, 'x-forwarded-host')?.split(',')[0]?.trim().toLowerCase();
  return host === header(req, 'host')?.toLowerCase() || (forwarded !== undefined && host === forwarded);
}

/** Why this request must be refused as cross-site, or undefined when it may proceed. */
export function crossSiteRefusal(req: Req, allowed: Set<string>): string | undefined {
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase())) return undefined;
  const site = header(req, 'sec-fetch-site')?.toLowerCase();
  const origin = header(req, 'origin');
  if (site !== undefined && TRUSTED_SITES.has(site)) return undefined;
  if (origin !== undefined && (allowed.has(origin) || isOwnOrigin(origin, req))) return undefined;
  if (site !== undefined) return `cross-site request refused: a ${req.method} from ${origin ?? `a ${site} page`} may not act on this site`;
  if (origin === undefined || !formPost(req)) return undefined;
  return `cross-site request refused: a form posted from ${origin} may not act on this site`;
}

/** A POST a page can send cross-site without a preflight (besides multipart): a form's body, or none. PUT, PATCH and DELETE always need one. */
const formPost = (req: Req): boolean => req.method?.toUpperCase() === 'POST' && FORM_TYPES.test(header(req, 'content-type') ?? 'text/plain');

/** Express middleware: 403 problem+json for a cross-site unsafe request (see above). */
export function crossSiteGuard(corsOrigins: string) {
  const allowed = listedOrigins(corsOrigins);
  return (req: Req, res: ProblemSink, next: () => void): void => {
    const refusal = crossSiteRefusal(req, allowed);
    if (refusal === undefined) return next();
    sendProblem(res, problem(403, refusal));
  };
}
