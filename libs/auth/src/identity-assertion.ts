/**
 * Gateway offloading (paper 003): the gateway checks the access token once (signature, expiry,
 * the account's token version) and forwards who the caller is as a short-lived signed assertion;
 * the services check that signature instead of re-checking the login. The key is derived from the
 * installation's token secret (HKDF, its own label), so only the gateway and the services hold it,
 * and an access token can never pass for an assertion or the other way round.
 */
import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ROLES, type Role } from '@shellgrade/domain';
import { type AuthenticatedUser, unauthenticated } from './jwt-tokens';

/** The header the gateway sets (and strips from what clients send). */
export const IDENTITY_ASSERTION_HEADER = 'x-identity-assertion';
/** Why the gateway gave no assertion (no login, expired, outdated): only the wording of the service's 401. */
export const IDENTITY_REFUSAL_HEADER = 'x-identity-refusal';

const ALGORITHM = 'HS256';
const AUDIENCE = 'shellgrade-services';
const ISSUER = 'shellgrade-gateway';
/** Long enough for a request to cross the gateway, short enough that a leaked one is soon useless. */
const TTL_SECONDS = 30;

export class IdentityAssertions {
  /** A KeyObject, not bytes: jsonwebtoken would try to parse bytes as a PEM key on every call (jwt-tokens.ts). */
  private readonly key: KeyObject;

  constructor(tokenSecret: string) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', tokenSecret, Buffer.alloc(0), 'shellgrade identity assertion v1', 32)));
  }

  sign(user: AuthenticatedUser): string {
    return jwt.sign({ typ: 'identity', email: user.email, role: user.role, sid: user.sid, ver: user.ver }, this.key, {
      algorithm: ALGORITHM,
      audience: AUDIENCE,
      issuer: ISSUER,
      subject: String(user.id),
      expiresIn: TTL_SECONDS,
    });
  }

  /** Rejects with DomainError('unauthenticated') unless the gateway signed it and it is fresh. */
  verify(assertion: string): AuthenticatedUser {
    let claims: string | jwt.JwtPayload;
    try {
      claims = jwt.verify(assertion, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE, issuer: ISSUER });
    } catch {
      throw unauthenticated('the identity the gateway vouches for is missing, forged or expired');
    }
    if (typeof claims === 'string' || claims.typ !== 'identity') throw unauthenticated('not an identity assertion');
    const { email, role, sid, ver } = claims;
    const id = Number(claims.sub);
    if (!Number.isSafeInteger(id) || typeof email !== 'string' || !ROLES.includes(role as Role) || typeof sid !== 'string' || !Number.isSafeInteger(ver)) {
      throw unauthenticated('malformed identity assertion');
    }
    return { id, email, role: role as Role, sid, ver: ver as number };
  }
}
