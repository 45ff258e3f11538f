/** What a gateway process needs, derived from the runtime configuration (SG_* variables). */
import type { RuntimeConfig } from '@shellgrade/variant';
import { parseUpstreamUrls } from './upstream-pool';

export interface GatewayConfig {
  replica: number;
  /** Replica URLs of the Exercise service (SG_EXERCISE_URL, comma-separated). */
  exerciseUrls: string[];
  /** Replica URLs of the Leftover service (SG_LEFTOVER_URL, comma-separated). */
  leftoverUrls: string[];
  upstreamTimeoutMs: number;
  /** Concurrent connections per upstream URL (SG_UPSTREAM_MAX_SOCKETS). */
  upstreamMaxSockets: number;
  corsOrigins: string;
  /** How long a replica that refused a connection answers 503 without being tried. */
  downCooldownMs: number;
  /** Idle client connections are kept this long (longer than HAProxy's / k6's idle timeouts). */
  clientKeepAliveMs: number;
}

export function gatewayConfigFrom(config: RuntimeConfig): GatewayConfig {
  return {
    replica: config.SG_REPLICA,
    exerciseUrls: parseUpstreamUrls('exercise', config.SG_EXERCISE_URL),
    leftoverUrls: parseUpstreamUrls('leftover', config.SG_LEFTOVER_URL),
    upstreamTimeoutMs: config.SG_UPSTREAM_TIMEOUT_MS,
    upstreamMaxSockets: config.SG_UPSTREAM_MAX_SOCKETS,
    corsOrigins: config.SG_CORS_ORIGINS,
    downCooldownMs: 1000,
    clientKeepAliveMs: 65_000,
  };
}
