/**
 * JWTs: a short-lived access token (checked by the guard against the account's token version)
 * and a refresh token whose jti is a row in the refresh-token store: single use, rotated by
 * /api/auth/verify within its family (one family per login, `sid` in the access token).
 */
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DomainError, ROLES, type Role, type User } from '@shellgrade/domain';

export interface TokenConfig {
  secret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

/** The identity a request acts as (the guard puts it on the request). */
export interface AuthenticatedUser {
  id: number;
  email: string;
  role: Role;
  /** The login session (refresh-token family) this token was issued for. */
  sid: string;
  /** The account's token version when issued; a role, email or password change bumps it. */
  ver: number;
}

/** What an access token is issued for besides the user. */
export interface SessionStamp {
  sid: string;
  ver: number;
}

export interface RefreshClaims {
  userId: number;
  jti: string;
  familyId: string;
}

const ALGORITHM = 'HS256';
const ISSUER = 'shellgrade';

export class TokenService {
  /**
   * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a
   * PEM private (sign) or public (verify) key on every call and only then falls back to a secret
   * key — two failed OpenSSL parses per token, the leftover's top CPU item in a profile under load.
   */
  private readonly key: KeyObject;

  constructor(private readonly cfg: TokenConfig) {
    this.key = createSecretKey(Buffer.from(cfg.secret));
  }

  get accessTtlSeconds(): number {
    return this.cfg.accessTtlSeconds;
  }

  get refreshTtlSeconds(): number {
    return this.cfg.refreshTtlSeconds;
  }

  signAccess(user: Pick<User, 'id' | 'email' | 'role'>, session: SessionStamp): string {
    return jwt.sign({ typ: 'access', email: user.email, role: user.role, sid: session.sid, ver: session.ver }, this.key, {
      algorithm: ALGORITHM,
      issuer: ISSUER,
      subject: String(user.id),
      expiresIn: this.cfg.accessTtlSeconds,
    });
  }

  /** A refresh token of `familyId` (a new family, i.e. a new login, when omitted). */
  signRefresh(userId: number, familyId: string = randomUUID()): { token: string; jti: string; familyId: string; expiresAt: Date } {
    const jti = randomUUID();
    const token = jwt.sign({ typ: 'refresh', fam: familyId }, this.key, {
      algorithm: ALGORITHM,
      issuer: ISSUER,
      subject: String(userId),
      jwtid: jti,
      expiresIn: this.cfg.refreshTtlSeconds,
    });
    return { token, jti, familyId, expiresAt: new Date(Date.now() + this.cfg.refreshTtlSeconds * 1000) };
  }

  /** Rejects with DomainError('unauthenticated') unless it is a valid, unexpired access token. */
  verifyAccess(token: string): AuthenticatedUser {
    const claims = this.decode(token, 'access');
    const role = claims.role as Role;
    const { email, sid, ver } = claims;
    if (typeof email !== 'string' || !ROLES.includes(role) || typeof sid !== 'string' || !Number.isSafeInteger(ver)) {
      throw unauthenticated('malformed access token');
    }
    return { id: subjectId(claims), email, role, sid, ver: ver as number };
  }

  verifyRefresh(token: string): RefreshClaims {
    const claims = this.decode(token, 'refresh');
    if (typeof claims.jti !== 'string' || typeof claims.fam !== 'string') throw unauthenticated('malformed refresh token');
    return { userId: subjectId(claims), jti: claims.jti, familyId: claims.fam };
  }

  /**
   * The session (refresh-token family) of an access token signed by us, even an expired one,
   * so logout can end the session without the refresh cookie (scoped to the refresh path).
   */
  sessionOfAccess(token: string): string | undefined {
    try {
      const sid = this.decode(token, 'access', true).sid;
      return typeof sid === 'string' ? sid : undefined;
    } catch {
      return undefined;
    }
  }

  private decode(token: string, typ: 'access' | 'refresh', ignoreExpiration = false): jwt.JwtPayload {
    let claims: string | jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER, ignoreExpiration });
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      throw unauthenticated(expired ? `${typ} token expired` : `invalid ${typ} token`);
    }
    if (typeof claims === 'string' || claims.typ !== typ) throw unauthenticated(`not a ${typ} token`);
    return claims;
  }
}

function subjectId(claims: jwt.JwtPayload): number {
  const id = Number(claims.sub);
  if (!Number.isSafeInteger(id) || id <= 0) throw unauthenticated('malformed token subject');
  return id;
}

export const unauthenticated = (why: string) => new DomainError('unauthenticated', why);
