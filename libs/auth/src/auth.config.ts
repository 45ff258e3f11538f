import type { RateLimitConfig } from './rate-limits.config';

/**
 * What a composition root passes: libs/wiring maps the variant spec's `auth` onto it
 * (libs/variant/src/spec.ts holds every default). No field has a default here.
 */
export interface AuthConfig {
  jwtSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** log2 of scrypt's N for new password hashes. */
  kdfCost: number;
  /** Secure flag on cookies: on, off, or `auto` (on when the request came over TLS, as seen through trusted proxies). */
  secureCookies: boolean | 'auto';
  /** Path the refresh cookie is sent to: only the refresh route, never to every API call. */
  refreshCookiePath: string;
  /**
   * How long a replica trusts an account's token version or a live session it read (the delay of a
   * role change, deletion or logout made elsewhere); 0: every request reads them.
   */
  tokenVersionCacheMs: number;
  /**
   * How long it trusts them while it hears PostgreSQL's change notifications (each change ends its
   * entry at once: AccessStateTrust); 0 or unset: it does not listen, tokenVersionCacheMs only.
   */
  notifiedCacheMs?: number;
  /**
   * How guarded routes learn who calls: `access-token` (checked here, the default everywhere), or
   * `gateway-assertion` (services behind an offloading gateway: only its signed assertion counts).
   */
  identity: 'access-token' | 'gateway-assertion';
  /**
   * The variant's own proxies in front of this process (HAProxy, the gateway): only their
   * X-Forwarded-For names the client that keys the per-client rate limits. Addresses, CIDR ranges
   * or `loopback` / `linklocal` / `uniquelocal`; empty: the peer itself is the client.
   */
  trustedProxies: readonly string[];
  rateLimits: RateLimitConfig;
}

export const AUTH_CONFIG = Symbol('AuthConfig');
