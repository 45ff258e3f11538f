import type { OpsAccess } from '@shellgrade/http';

/** What a gateway process needs (libs/wiring derives it from the process's spec). */
export interface GatewayConfig {
  replica: number;
  /** proxy; aggregation: GET /api/dashboard answered here from parallel reads; offloading: the login checked here, services trust a signed assertion (spec gateway.pattern). */
  pattern: 'proxy' | 'aggregation' | 'offloading';
  /** Replica URLs of the Exercise service. */
  exerciseUrls: string[];
  /** Replica URLs of the Leftover service. */
  leftoverUrls: string[];
  upstreamTimeoutMs: number;
  /** Concurrent connections per upstream URL. */
  upstreamMaxSockets: number;
  /** Idle keep-alive connections kept per upstream URL (spec: gateway.upstreamMaxFreeSockets). */
  upstreamMaxFreeSockets: number;
  corsOrigins: string;
  /** Who reads /metrics, /docs and /health detail. */
  opsAccess: OpsAccess;
  /** The installation's scrape token: opens /metrics, /docs and /health detail to whoever presents it. */
  scrapeToken?: string;
  /** Names besides localhost and the loopback addresses this machine's callers address the gateway by (the loopback credential's Host check). */
  opsHostNames?: string[];
  /**
   * The proxies in front whose X-Request-Start is forwarded as they stamped it (the variant's own:
   * HAProxy before several gateways); from anyone else the gateway stamps its own arrival. Unset: none.
   */
  trustedProxies?: readonly string[];
  /** How long a replica that refused a connection answers 503 without being tried. */
  downCooldownMs: number;
  /** Idle client connections are kept this long (longer than HAProxy's / k6's idle timeouts). */
  clientKeepAliveMs: number;
  /** transport grpc: the services' gRPC edges (grpc-js targets) the gateway forwards to instead of the URLs. */
  grpc?: { exerciseTarget: string; leftoverTarget: string; maxBodyBytes: number };
}
