import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limits.config';

/** What a composition root passes (libs/wiring, from the spec); the optional parts have one default each, below. */
export interface AuthConfig {
  jwtSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** log2 of scrypt's N for new password hashes. */
  kdfCost: number;
  /** Secure flag on cookies: on, off, or `auto` (on when the request came over TLS, as seen through trusted proxies). */
  secureCookies: boolean | 'auto';
  /** Path the refresh cookie is sent to: only the refresh route, never to every API call. */
  refreshCookiePath?: string;
  /** How long a replica trusts an account's token version it read (role change / deletion delay). */
  tokenVersionCacheMs?: number;
  rateLimits?: Partial<RateLimitConfig>;
}

/** AuthConfig with every default applied: what AUTH_CONFIG provides. */
export interface ResolvedAuthConfig extends AuthConfig {
  refreshCookiePath: string;
  tokenVersionCacheMs: number;
  rateLimits: RateLimitConfig;
}

export const AUTH_DEFAULTS = {
  refreshCookiePath: '/api/auth',
  tokenVersionCacheMs: 5_000,
} as const;

export function resolveAuthConfig(cfg: AuthConfig): ResolvedAuthConfig {
  return {
    ...cfg,
    refreshCookiePath: cfg.refreshCookiePath ?? AUTH_DEFAULTS.refreshCookiePath,
    tokenVersionCacheMs: cfg.tokenVersionCacheMs ?? AUTH_DEFAULTS.tokenVersionCacheMs,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...cfg.rateLimits },
  };
}

export const AUTH_CONFIG = Symbol('AuthConfig');
