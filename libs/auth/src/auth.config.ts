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

/** The runtime-config fields AuthModule.forRoot reads. */
export interface AuthRuntimeConfig {
  SG_JWT_SECRET: string;
  SG_ACCESS_TTL_S: number;
  SG_REFRESH_TTL_S: number;
  SG_KDF_COST: number;
}

export function authConfigFrom(cfg: AuthRuntimeConfig, secureCookies = false): AuthConfig {
  return {
    jwtSecret: cfg.SG_JWT_SECRET,
    accessTtlSeconds: cfg.SG_ACCESS_TTL_S,
    refreshTtlSeconds: cfg.SG_REFRESH_TTL_S,
    kdfCost: cfg.SG_KDF_COST,
    secureCookies,
  };
}
