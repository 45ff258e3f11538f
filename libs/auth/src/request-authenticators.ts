/**
 * Who a request acts as, decided one of two ways (spec gateway.pattern):
 * - access token (every variant but offloading, and the offloading gateway itself): the token's
 *   signature and expiry, then the account's current token version (a role change, a password
 *   change or a deletion ends it before it expires) and its login session (logout or a reused
 *   refresh token ends it too);
 * - gateway assertion (services behind an offloading gateway): only the gateway's signed, short-
 *   lived assertion of that same check, verified without a database read. A request that did not
 *   come through the gateway has none and gets 401.
 */
import type { RequestWithUser } from './decorators';
import { IDENTITY_ASSERTION_HEADER, IDENTITY_REFUSAL_HEADER, type IdentityAssertions } from './identity-assertion';
import { type AuthenticatedUser, type TokenService, unauthenticated } from './jwt-tokens';
import { accessTokenOf } from './request-credentials';

export type AuthenticatedRequest = Pick<RequestWithUser, 'headers'> & Partial<Pick<RequestWithUser, 'cookies'>>;

export interface RequestAuthenticator {
  /** Rejects with DomainError('unauthenticated') and a reason the user can act on. */
  authenticate(req: AuthenticatedRequest): Promise<AuthenticatedUser>;
}

export const REQUEST_AUTHENTICATOR = Symbol('RequestAuthenticator');

export class AccessTokenAuthenticator implements RequestAuthenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly versions: { current(userId: number): Promise<number | null> },
    private readonly sessions: { isLive(sid: string): Promise<boolean> },
  ) {}

  async authenticate(req: AuthenticatedRequest): Promise<AuthenticatedUser> {
    const token = accessTokenOf(req);
    if (!token) throw unauthenticated('authentication required');
    const user = this.tokens.verifyAccess(token);
    // Both cached reads at once: neither waits for the other.
    const [version, live] = await Promise.all([this.versions.current(user.id), this.sessions.isLive(user.sid)]);
    if (version === null) throw unauthenticated('this account no longer exists');
    if (version !== user.ver) throw unauthenticated('access token outdated by an account change; refresh it');
    if (!live) throw unauthenticated('this session has ended (logged out, or its refresh token was used twice): log in again');
    return user;
  }
}

export class GatewayAssertionAuthenticator implements RequestAuthenticator {
  constructor(private readonly assertions: IdentityAssertions) {}

  async authenticate(req: AuthenticatedRequest): Promise<AuthenticatedUser> {
    const assertion = req.headers[IDENTITY_ASSERTION_HEADER];
    if (typeof assertion !== 'string' || assertion === '') {
      // The gateway's reason when it came through the gateway (expired, outdated...); never trusted for more than wording.
      const refusal = req.headers[IDENTITY_REFUSAL_HEADER];
      throw unauthenticated(typeof refusal === 'string' && refusal ? refusal : 'authentication required: log in, then call this service through the gateway');
    }
    return this.assertions.verify(assertion);
  }
}
