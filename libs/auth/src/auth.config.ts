export interface AuthConfig {
  jwtSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** log2 of scrypt's N for new password hashes. */
  kdfCost: number;
  /** Set the Secure flag on cookies (only behind HTTPS). */
  secureCookies: boolean;
}
export const AUTH_CONFIG = Symbol('AuthConfig');
