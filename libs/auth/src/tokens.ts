/**
 * JWTs: a short-lived access token (stateless, checked by the guard) and a refresh token
 * whose jti is a row in the refresh-token store (checked by /api/auth/verify and revocable).
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DomainError, type Role, type User } from '@shellgrade/domain';

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
}

export interface RefreshClaims {
  userId: number;
  jti: string;
}

const ALGORITHM = 'HS256';
const ISSUER = 'shellgrade';
const ROLES: readonly Role[] = ['admin', 'teacher', 'student'];

export class TokenService {
  constructor(private readonly cfg: TokenConfig) {}

  get accessTtlSeconds(): number {
    return this.cfg.accessTtlSeconds;
  }

  get refreshTtlSeconds(): number {
    return this.cfg.refreshTtlSeconds;
  }

  signAccess(user: Pick<User, 'id' | 'email' | 'role'>): string {
    return jwt.sign({ typ: 'access', email: user.email, role: user.role }, this.cfg.secret, {
      algorithm: ALGORITHM,
      issuer: ISSUER,
      subject: String(user.id),
      expiresIn: this.cfg.accessTtlSeconds,
    });
  }

  signRefresh(userId: number): { token: string; jti: string; expiresAt: Date } {
    const jti = randomUUID();
    const token = jwt.sign({ typ: 'refresh' }, this.cfg.secret, {
      algorithm: ALGORITHM,
      issuer: ISSUER,
      subject: String(userId),
      jwtid: jti,
      expiresIn: this.cfg.refreshTtlSeconds,
    });
    return { token, jti, expiresAt: new Date(Date.now() + this.cfg.refreshTtlSeconds * 1000) };
  }

  /** Rejects with DomainError('unauthenticated') unless it is a valid, unexpired access token. */
  verifyAccess(token: string): AuthenticatedUser {
    const claims = this.decode(token, 'access');
    const role = claims.role as Role;
    if (typeof claims.email !== 'string' || !ROLES.includes(role)) throw unauthenticated('malformed access token');
    return { id: subjectId(claims), email: claims.email, role };
  }

  verifyRefresh(token: string): RefreshClaims {
    const claims = this.decode(token, 'refresh');
    if (typeof claims.jti !== 'string') throw unauthenticated('malformed refresh token');
    return { userId: subjectId(claims), jti: claims.jti };
  }

  private decode(token: string, typ: 'access' | 'refresh'): jwt.JwtPayload {
    let claims: string | jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.cfg.secret, { algorithms: [ALGORITHM], issuer: ISSUER });
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
