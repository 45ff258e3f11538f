/**
 * What authentication needs from storage. libs/persistence implements both and binds them
 * to these tokens, so this library does not depend on a database.
 */
import type { User } from '@shellgrade/domain';

/** An account as authentication sees it: the user and its token version. */
export interface Account {
  user: User;
  /** Bumped by every role, email or password change: access tokens of an older version are refused. */
  tokenVersion: number;
}

export interface CredentialStore {
  /** The account and its stored password hash; email compared case-insensitively. */
  findCredentials(email: string): Promise<(Account & { passwordHash: string }) | null>;
  /** null once the account is deleted. */
  findAccount(id: number): Promise<Account | null>;
  /**
   * Replaces the account's password hash by the same password hashed in a newer scheme (at a
   * login), only while the stored hash is still `from`: a concurrent password change wins. Not a
   * password change: the token version stays. False when nothing was replaced.
   */
  upgradePasswordHash(userId: number, from: string, to: string): Promise<boolean>;
}
export const CREDENTIAL_STORE = Symbol('CredentialStore');

/**
 * What presenting a refresh token did: `rotated` (it was the family's live token; `next` now is),
 * `reused` (it had already been rotated or revoked: the whole family is now revoked) or
 * `unknown` (no such session, e.g. purged).
 */
export type RotationOutcome = 'rotated' | 'reused' | 'unknown';

/**
 * What a rotation did, and once rotated the token's account as it stands (null: deleted), read by
 * the same statement: the refresh answers with it without a round trip of its own.
 */
export type Rotation = { outcome: 'rotated'; account: Account | null } | { outcome: Exclude<RotationOutcome, 'rotated'> };

/**
 * Refresh-token sessions, shared by every replica (logout must hold everywhere). One family per
 * login; each refresh token is used once and replaced by the next of its family.
 */
export interface RefreshTokenStore {
  insert(jti: string, userId: number, familyId: string, expiresAt: Date): Promise<void>;
  /** Atomically marks `jti` used and inserts `next` into its family, or detects reuse (see RotationOutcome). */
  rotate(jti: string, userId: number, next: { jti: string; expiresAt: Date }): Promise<Rotation>;
  /** Revokes every live token of the family; false when none was live. */
  revokeFamily(familyId: string): Promise<boolean>;
  /** True while the family has a token neither revoked nor expired: its access tokens are still good. */
  familyLive(familyId: string): Promise<boolean>;
  /** Revokes every session of the user but `keepFamilyId`; returns how many tokens were revoked. */
  revokeUserSessions(userId: number, keepFamilyId?: string): Promise<number>;
}
export const REFRESH_TOKEN_STORE = Symbol('RefreshTokenStore');

/**
 * What a request's access token is checked against when neither is cached yet: the account's
 * token version (null once deleted) and whether the login session is live, in one round trip.
 */
export interface AccessStateReader {
  accessState(userId: number, familyId: string): Promise<{ tokenVersion: number | null; familyLive: boolean }>;
}
export const ACCESS_STATE_READER = Symbol('AccessStateReader');

/** What AccessStateChanges tells its watcher. */
export interface AccessStateListener {
  /** The account's token version changed, or the account was deleted. */
  account(userId: number): void;
  /** The login session (refresh-token family) was revoked. */
  session(familyId: string): void;
  /** Any account or session may have changed at once (a table truncated: a database reset). */
  all(): void;
  /** Every change committed from now on will be told (listening, or listening again after a loss). */
  hearing(): void;
  /** Changes may be missed from now on (the connection was lost): the listener forgets what it cached. */
  deaf(): void;
}

/**
 * Committed changes to what access tokens are checked against, pushed to every replica (the
 * database's notifications): a replica that hears them may cache the access state far longer
 * (AccessStateTrust) and still refuse a revoked session or an outdated token at once.
 */
export interface AccessStateChanges {
  /** Starts telling `listener`; resolves once listening (then `hearing` was called) or with an error. */
  watch(listener: AccessStateListener): Promise<void>;
  close(): Promise<void>;
}
export const ACCESS_STATE_CHANGES = Symbol('AccessStateChanges');

/** What a login, a refresh or a reissue hands the client. */
export interface SessionTokens {
  user: User;
  accessToken: string;
  refreshToken: string;
}

/** The tokens a request presents (from its cookies or bearer header), as the HTTP edge read them. */
export interface PresentedTokens {
  refreshToken?: string;
  accessToken?: string;
}

/**
 * The login sessions as the HTTP edge uses them (libs/api's AuthController, UsersController):
 * the application's port, so a controller never holds the token or password machinery itself.
 * AuthModule binds it to AuthService.
 */
export interface LoginSessions {
  /** A new session (refresh-token family); failed attempts count against the account and `client` + account. */
  login(email: string, password: string, client: string): Promise<SessionTokens>;
  /** Rotates the refresh token; a reused one revokes its whole family. */
  refresh(refreshToken: string | undefined): Promise<SessionTokens>;
  /** A fresh access token for a session whose account just changed (new token version). */
  reissueAccess(userId: number, sid: string): Promise<string>;
  /** Ends the session the tokens name (the refresh token's family, else the access token's, even expired); false when nothing was live. */
  logout(presented: PresentedTokens): Promise<boolean>;
  /** True when `password` is the account's current password; wrong guesses count as failed logins. */
  checkPassword(email: string, password: string, client: string): Promise<boolean>;
  /** Revokes every session of the user except `keepSid`; how many tokens were revoked. */
  endOtherSessions(userId: number, keepSid?: string): Promise<number>;
}
export const LOGIN_SESSIONS = Symbol('LoginSessions');

/**
 * The per-user attempt limits the HTTP edge applies (429 problem+json with Retry-After beyond
 * them): submissions, grader trials, enrolment keys. AuthModule binds it to RateLimits (memory or
 * Redis counters); a controller never builds or configures the counters itself.
 */
export interface AttemptLimits {
  /** One enrolment-key check under the user's limit: the point is taken before `check` and given back unless the key was wrong. */
  attemptEnrolmentKey(userId: number, check: () => Promise<boolean>): Promise<boolean>;
  /** Counts one submission of the student; 429 beyond the allowance. */
  submission(userId: number): Promise<void>;
  /** Gives back a submission refused with 503 + Retry-After (the student comes back as told). */
  refundSubmission(userId: number): Promise<void>;
  /** Counts one grader trial of an exercise's author; 429 beyond the allowance. */
  trial(authorId: number): Promise<void>;
}
export const ATTEMPT_LIMITS = Symbol('AttemptLimits');

/**
 * Secrets stored as one-way hashes at the deployment's cost (spec auth.kdfCost): account
 * passwords and enrolment keys. AuthModule binds it (KdfSecretHashing).
 */
export interface SecretHashing {
  hashPassword(password: string): Promise<string>;
  hashEnrolmentKey(key: string): Promise<string>;
  /** Constant-time check of a key against its stored hash. */
  verifyEnrolmentKey(key: string, stored: string): Promise<boolean>;
}
export const SECRET_HASHING = Symbol('SecretHashing');
