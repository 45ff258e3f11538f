import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { admitEverything, LOGIN_ADMISSION, type LoginAdmission } from '@shellgrade/domain';
import { hashPassword, needsRehash, verifyPassword } from './password';
import {
  type Account,
  CREDENTIAL_STORE,
  type CredentialStore,
  type LoginSessions,
  type PresentedTokens,
  REFRESH_TOKEN_STORE,
  type RefreshTokenStore,
  type SessionTokens,
} from './ports';
import { RateLimits } from './rate-limits';
import { TokenService, unauthenticated } from './jwt-tokens';
import { SessionFamilies } from './session-families';
import { TokenVersions } from './token-versions';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';

@Injectable()
export class AuthService implements LoginSessions {
  /** Verified when the email is unknown, so response time does not reveal which emails exist. */
  private decoyHash: Promise<string> | undefined;
  private readonly log = new Logger(AuthService.name);

  constructor(
    private readonly tokens: TokenService,
    @Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore,
    @Inject(REFRESH_TOKEN_STORE) private readonly refreshTokens: RefreshTokenStore,
    @Inject(AUTH_CONFIG) private readonly cfg: AuthConfig,
    private readonly limits: RateLimits,
    private readonly sessions: SessionFamilies,
    private readonly versions: TokenVersions,
    /** Bounds the password checks running or queued in this process (spec admission.maxLogins*); unbound: every login admitted. */
    @Optional() @Inject(LOGIN_ADMISSION) private readonly loginAdmission: LoginAdmission = admitEverything,
  ) {}

  /**
   * A new session (a new refresh-token family) per login: an account may be logged in many
   * times. Failed attempts count against the account and the client + account (`client`: its address).
   */
  async login(email: string, password: string, client: string): Promise<SessionTokens> {
    const readAt = Date.now();
    const found = await this.limits.attemptLogin(email, client, () => this.verifiedAccount(email, password));
    if (!found) throw unauthenticated('invalid email or password');
    const refresh = this.tokens.signRefresh(found.user.id);
    await this.refreshTokens.insert(refresh.jti, found.user.id, refresh.familyId, refresh.expiresAt);
    // What the session's first requests are checked against, just read or made here: no read for them.
    this.versions.remember(found.user.id, found.tokenVersion, readAt);
    this.sessions.issued(refresh.familyId);
    return { user: found.user, accessToken: this.access(found, refresh.familyId), refreshToken: refresh.token };
  }

  /**
   * Rotates the refresh token: the presented one is spent and a new one of the same family is
   * returned with a fresh access token. Presenting a spent token again (a stolen copy, or the
   * thief's after the owner refreshed) revokes the whole family: both parties are logged out.
   */
  async refresh(refreshToken: string | undefined): Promise<SessionTokens> {
    if (!refreshToken) throw unauthenticated('no refresh token');
    const { userId, jti, familyId } = this.tokens.verifyRefresh(refreshToken);
    const next = this.tokens.signRefresh(userId, familyId);
    const readAt = Date.now();
    const rotation = await this.refreshTokens.rotate(jti, userId, next);
    if (rotation.outcome === 'reused') {
      this.sessions.end(familyId);
      throw unauthenticated('refresh token reused: every session of this login is revoked');
    }
    if (rotation.outcome !== 'rotated') throw unauthenticated('session revoked or expired');
    const { account } = rotation;
    if (!account) throw unauthenticated('user no longer exists');
    this.versions.remember(userId, account.tokenVersion, readAt);
    this.sessions.issued(familyId);
    return { user: account.user, accessToken: this.access(account, familyId), refreshToken: next.token };
  }

  /** A fresh access token for a session whose account just changed (new token version). */
  async reissueAccess(userId: number, sid: string): Promise<string> {
    const readAt = Date.now();
    const account = await this.credentials.findAccount(userId);
    if (!account) throw unauthenticated('user no longer exists');
    // The new version, read after the change: the fresh token works here at once, notification or not.
    this.versions.remember(userId, account.tokenVersion, readAt);
    return this.access(account, sid);
  }

  /**
   * Ends the login session (its refresh-token family, and so its access tokens) the presented
   * tokens name: the refresh token's family when the client sends one (bearer clients), else the
   * access token's `sid` (browsers: the refresh cookie is scoped to the refresh path and never
   * reaches logout). An expired access token still names it. False when nothing was live.
   */
  async logout(presented: PresentedTokens): Promise<boolean> {
    const sid =
      (presented.refreshToken && this.familyOf(presented.refreshToken)) ?? (presented.accessToken ? this.tokens.sessionOfAccess(presented.accessToken) : undefined);
    if (!sid) return false;
    const revoked = await this.refreshTokens.revokeFamily(sid);
    this.sessions.end(sid);
    return revoked;
  }

  /**
   * True when `password` is the account's current password (a password change asks for it).
   * Wrong guesses count as failed logins: a stolen session cannot brute-force the password here.
   */
  async checkPassword(email: string, password: string, client: string): Promise<boolean> {
    return (await this.limits.attemptLogin(email, client, () => this.verifiedAccount(email, password))) !== undefined;
  }

  /** Revokes every session of the user except `keepSid` (after a password change). */
  async endOtherSessions(userId: number, keepSid?: string): Promise<number> {
    return this.refreshTokens.revokeUserSessions(userId, keepSid);
  }

  private familyOf(refreshToken: string): string | undefined {
    try {
      return this.tokens.verifyRefresh(refreshToken).familyId;
    } catch {
      return undefined;
    }
  }

  private access(account: Account, sid: string): string {
    return this.tokens.signAccess(account.user, { sid, ver: account.tokenVersion });
  }

  /**
   * The account when `password` is its password. Through the login admission when the spec bounds
   * it: a refused login (503 + Retry-After, not a failed login) costs neither a database read nor
   * any hashing work, so refusing stays cheap however many are refused. A hash of an older scheme
   * (scrypt, before argon2id became the secure default) is replaced at its first good login.
   */
  private async verifiedAccount(email: string, password: string): Promise<Account | undefined> {
    const ticket = this.loginAdmission.enter();
    try {
      const found = (await this.credentials.findCredentials(email)) ?? undefined;
      const matches = await this.hashMatches(found?.passwordHash, password); // the decoy too: no timing tell
      if (!found || !matches) return undefined;
      if (needsRehash(found.passwordHash, this.cfg.kdfCost)) await this.upgradeHash(found, password);
      return found;
    } finally {
      ticket.release();
    }
  }

  /** Best effort: a failed upgrade leaves the old (still valid) hash and does not fail the login. */
  private async upgradeHash(account: Account & { passwordHash: string }, password: string): Promise<void> {
    try {
      const upgraded = await hashPassword(password, this.cfg.kdfCost);
      await this.credentials.upgradePasswordHash(account.user.id, account.passwordHash, upgraded);
    } catch (err) {
      this.log.warn(`password hash of user ${account.user.id} not upgraded: ${(err as Error).message}`);
    }
  }

  private async hashMatches(stored: string | undefined, password: string): Promise<boolean> {
    if (stored === undefined) {
      this.decoyHash ??= hashPassword('decoy password', this.cfg.kdfCost);
      await verifyPassword(password, await this.decoyHash);
      return false;
    }
    return verifyPassword(password, stored);
  }
}
