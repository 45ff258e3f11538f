/**
 * Gateway offloading (spec gateway.pattern: offloading): the login is checked here once per
 * request — access token signature and expiry, and the account's token version — and the
 * services are told who calls by a signed, short-lived assertion (libs/auth identity-assertion.ts)
 * that they verify without a database read. What a client sends in the assertion header is
 * dropped first: only the gateway vouches. A request without a valid login goes on without an
 * assertion (login itself must pass), and the service's guard answers 401 with the reason given here.
 */
import type { IncomingMessage } from 'node:http';
import cookieParser from 'cookie-parser';
import { IDENTITY_ASSERTION_HEADER, IDENTITY_REFUSAL_HEADER, type AuthenticatedRequest, type IdentityAssertions, type RequestAuthenticator } from '@shellgrade/auth';
import type { GatewayMiddleware } from '../gateway-proxy';
import { classifyPath } from '../route-table';

export interface IdentityOffloading {
  /** The access-token check the services would otherwise each make (token version included). */
  authenticator: RequestAuthenticator;
  assertions: IdentityAssertions;
}

const OFFLOADED_HEADERS = new Set([IDENTITY_ASSERTION_HEADER, IDENTITY_REFUSAL_HEADER]);

export function createIdentityOffloader({ authenticator, assertions }: IdentityOffloading): GatewayMiddleware {
  const parseCookies = cookieParser();
  return (req, res, next) => {
    if (classifyPath(req.url ?? '/').kind !== 'proxy') {
      next();
      return;
    }
    dropClientAssertions(req);
    parseCookies(req as never, res as never, () => {
      authenticator.authenticate(req as unknown as AuthenticatedRequest).then(
        (user) => {
          setHeader(req, IDENTITY_ASSERTION_HEADER, assertions.sign(user));
          next();
        },
        (error: unknown) => {
          // No login, or one the gateway refused: the service's guard decides, with this reason.
          setHeader(req, IDENTITY_REFUSAL_HEADER, reasonOf(error));
          next();
        },
      );
    });
  };
}

/** Both views of the headers: the HTTP proxy forwards `headers`, the gRPC forwarder `rawHeaders`. */
function dropClientAssertions(req: IncomingMessage): void {
  for (const name of OFFLOADED_HEADERS) delete req.headers[name];
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (!OFFLOADED_HEADERS.has(req.rawHeaders[i]!.toLowerCase())) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}

function setHeader(req: IncomingMessage, name: string, value: string): void {
  req.headers[name] = value;
  req.rawHeaders.push(name, value);
}

/** One printable line: it travels in a header. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : 'authentication required';
  return message.replace(/[^\x20-\x7e]/g, ' ').slice(0, 200);
}
