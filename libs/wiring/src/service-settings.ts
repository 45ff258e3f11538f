/** The settings of a service read off its spec: HTTP edge and listen address, database pool, auth, gateway. */
import { type AuthConfig, refuseDefaultSecrets } from '@shellgrade/auth';
import { parseUpstreamUrls, type GatewayConfig } from '@shellgrade/gateway';
import { bodyLimitFor, type HttpAppOptions, type ListenAddress, type ServiceIdentity } from '@shellgrade/http';
import type { DatabaseSettings } from '@shellgrade/persistence';
import { notifiedCacheMsOf, rateLimitStoreOf, variantServers, type Connections, type ServiceConfig } from '@shellgrade/variant';
import { exposedBeyondLoopback } from './exposure';
import { trustedProxiesOf } from './trusted-proxies';

/** A PostgreSQL pool of this process as the spec sets it (database.*): the one reading of it for every pool the wiring opens. */
export function databaseSettingsOf(cfg: ServiceConfig): DatabaseSettings {
  const { pool: poolSize, idleTimeoutMs, synchronousCommit } = cfg.spec.database;
  return { url: cfg.connections.DATABASE_URL, poolSize, idleTimeoutMs, synchronousCommit };
}

/** Where this process listens: its address from the launcher, the backlog from the spec (http.listenBacklog). */
export function listenAddressOf(cfg: ServiceConfig): ListenAddress {
  return { host: cfg.host, port: cfg.port, backlog: cfg.spec.http.listenBacklog };
}

export function httpOptionsOf(cfg: ServiceConfig, title: string): HttpAppOptions {
  const { http } = cfg.spec;
  return {
    title,
    corsOrigins: http.corsOrigins,
    maxArchiveBytes: http.maxArchiveBytes,
    opsAccess: http.opsAccess,
    keepAliveMs: http.keepAliveMs,
    requestTimeoutMs: http.requestTimeoutMs,
    // X-Forwarded-* (client address, Secure cookies) believed from the variant's own proxies only, as the rate limits do
    trustProxy: trustedProxiesOf(cfg),
    ...scrapeTokenOf(cfg),
    ...opsHostNamesOf(cfg.connections),
  };
}

/** The names this machine's callers address it by besides localhost and the loopback addresses (SG_OPS_HOST_NAMES), when any. */
export function opsHostNamesOf(connections: Pick<Connections, 'SG_OPS_HOST_NAMES'>): { opsHostNames?: string[] } {
  const names = connections.SG_OPS_HOST_NAMES.split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  return names.length > 0 ? { opsHostNames: names } : {};
}

/** The installation's scrape token, when the launcher gave one (otherwise the operational surfaces answer loopback callers only). */
function scrapeTokenOf(cfg: ServiceConfig): { scrapeToken?: string } {
  const token = cfg.connections.SG_SCRAPE_TOKEN;
  return token ? { scrapeToken: token } : {};
}

export function identityOf(cfg: ServiceConfig): ServiceIdentity {
  return { role: cfg.role, replica: cfg.replica, variant: cfg.spec.name };
}

/**
 * Every process that signs or checks tokens reads its auth settings here: first, no default
 * secret and no cheap password hash outside development — judged on where the process is reached
 * from (exposure.ts), so a replica behind an exposed HAProxy refuses like an exposed monolith.
 */
export function authConfigOf(cfg: ServiceConfig): AuthConfig {
  const { auth } = cfg.spec;
  const c = cfg.connections;
  refuseDefaultSecrets(
    {
      process: `${cfg.role} replica ${cfg.replica}`,
      exposedOn: exposedBeyondLoopback(cfg),
      jwtSecret: c.SG_JWT_SECRET,
      databaseUrl: c.DATABASE_URL,
      ...(variantServers(cfg.spec).includes('rabbitmq') ? { brokerUrl: c.AMQP_URL } : {}),
      ...(cfg.spec.storage === 'minio' ? { objectStore: { accessKey: c.MINIO_ACCESS_KEY, secretKey: c.MINIO_SECRET_KEY } } : {}),
      ...(variantServers(cfg.spec).includes('redis') ? { redisUrl: c.REDIS_URL } : {}),
      kdfCost: auth.kdfCost,
    },
    auth.secretPolicy,
  );
  const store = rateLimitStoreOf(cfg.spec, cfg.role);
  return {
    jwtSecret: c.SG_JWT_SECRET,
    accessTtlSeconds: auth.accessTtlS,
    refreshTtlSeconds: auth.refreshTtlS,
    kdfCost: auth.kdfCost,
    secureCookies: auth.secureCookies,
    refreshCookiePath: auth.refreshCookiePath,
    tokenVersionCacheMs: auth.tokenVersionCacheMs,
    notifiedCacheMs: notifiedCacheMsOf(cfg.spec),
    identity: cfg.spec.gateway.pattern === 'offloading' && cfg.role !== 'gateway' ? 'gateway-assertion' : 'access-token',
    trustedProxies: trustedProxiesOf(cfg),
    rateLimits: { ...auth.rateLimits, store, ...(store === 'redis' ? { redisUrl: c.REDIS_URL } : {}) },
  };
}

export function gatewayConfigOf(cfg: ServiceConfig): GatewayConfig {
  if (!cfg.upstreams) throw new Error(`the gateway of ${cfg.spec.name} has no upstreams: topology ${cfg.spec.topology}`);
  const { gateway } = cfg.spec;
  return {
    replica: cfg.replica,
    pattern: gateway.pattern,
    exerciseUrls: parseUpstreamUrls('exercise', cfg.upstreams.exerciseUrl),
    leftoverUrls: parseUpstreamUrls('leftover', cfg.upstreams.leftoverUrl),
    upstreamTimeoutMs: gateway.upstreamTimeoutMs,
    upstreamMaxSockets: gateway.upstreamMaxSockets,
    upstreamMaxFreeSockets: gateway.upstreamMaxFreeSockets,
    corsOrigins: cfg.spec.http.corsOrigins,
    opsAccess: cfg.spec.http.opsAccess,
    ...scrapeTokenOf(cfg),
    ...opsHostNamesOf(cfg.connections),
    // X-Request-Start (answer deadlines) kept from the variant's own proxies only, as X-Forwarded-For is
    trustedProxies: trustedProxiesOf(cfg),
    downCooldownMs: gateway.downCooldownMs,
    clientKeepAliveMs: gateway.clientKeepAliveMs,
    ...(cfg.spec.transport === 'grpc' ? { grpc: grpcTargetsOf(cfg) } : {}),
  };
}

function grpcTargetsOf(cfg: ServiceConfig): NonNullable<GatewayConfig['grpc']> {
  const { leftoverGrpc, exerciseGrpc } = cfg.upstreams ?? {};
  if (!leftoverGrpc || !exerciseGrpc) throw new Error(`the gateway of ${cfg.spec.name} (transport grpc) was given no gRPC targets`);
  return { exerciseTarget: exerciseGrpc, leftoverTarget: leftoverGrpc, maxBodyBytes: bodyLimitFor(cfg.spec.http.maxArchiveBytes) };
}

