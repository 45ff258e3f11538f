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
import type { AccessStateReader } from './ports';
import { accessTokenOf } from './request-credentials';

export type AuthenticatedRequest = Pick<RequestWithUser, 'headers'> & Partial<Pick<RequestWithUser, 'cookies'>>;

export interface RequestAuthenticator {
  /** Rejects with DomainError('unauthenticated') and a reason the user can act on. */
  authenticate(req: AuthenticatedRequest): Promise<AuthenticatedUser>;
}

export const REQUEST_AUTHENTICATOR = Symbol('RequestAuthenticator');

/** The account's token version, through a cache (TokenVersions). */
interface VersionSource {
  current(userId: number): Promise<number | null>;
  peek?(userId: number): number | null | undefined;
  remember?(userId: number, version: number | null, readAt?: number): void;
}

/** Whether a login session is live, through a cache (SessionFamilies). */
interface SessionSource {
  isLive(sid: string): Promise<boolean>;
  peek?(sid: string): boolean | undefined;
  record?(sid: string, live: boolean, readAt?: number): void;
}

export class AccessTokenAuthenticator implements RequestAuthenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly versions: VersionSource,
    private readonly sessions: SessionSource,
    /** Reads both in one round trip when neither is cached (the first request on a replica after a login elsewhere). */
    private readonly both?: AccessStateReader,
  ) {}

  async authenticate(req: AuthenticatedRequest): Promise<AuthenticatedUser> {
    const token = accessTokenOf(req);
    if (!token) throw unauthenticated('authentication required');
    const user = this.tokens.verifyAccess(token);
    const [version, live] = await this.accessState(user.id, user.sid);
    if (version === null) throw unauthenticated('this account no longer exists');
    if (version !== user.ver) throw unauthenticated('access token outdated by an account change; refresh it');
    if (!live) throw unauthenticated('this session has ended (logged out, or its refresh token was used twice): log in again');
    return user;
  }

  /** One read when both are missing, else each from its cache or its own read, at once. */
  private async accessState(userId: number, sid: string): Promise<[number | null, boolean]> {
    const version = this.versions.peek?.(userId);
    const live = this.sessions.peek?.(sid);
    if (version === undefined && live === undefined && this.both && this.versions.remember && this.sessions.record) {
      const readAt = Date.now(); // (a change heard while the read is in flight shortens what it caches)
      const state = await this.both.accessState(userId, sid);
      this.versions.remember(userId, state.tokenVersion, readAt);
      this.sessions.record(sid, state.familyLive, readAt);
      return [state.tokenVersion, state.familyLive];
    }
    return Promise.all([version !== undefined ? version : this.versions.current(userId), live !== undefined ? live : this.sessions.isLive(sid)]);
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
