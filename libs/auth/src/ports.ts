/**
 * What authentication needs from storage. libs/persistence implements both and binds them
 * to these tokens, so this library does not depend on a database.
 */
import type { User } from '@shellgrade/domain';

export interface CredentialStore {
  /** The user and its stored password hash; email compared case-insensitively. */
  findCredentials(email: string): Promise<{ user: User; passwordHash: string } | null>;
  findById(id: number): Promise<User | null>;
}
export const CREDENTIAL_STORE = Symbol('CredentialStore');

/** Refresh-token sessions, shared by every replica (logout must hold everywhere). */
export interface RefreshTokenStore {
  insert(jti: string, userId: number, expiresAt: Date): Promise<void>;
  isActive(jti: string, userId: number): Promise<boolean>;
  revoke(jti: string): Promise<boolean>;
}
export const REFRESH_TOKEN_STORE = Symbol('RefreshTokenStore');
