/**
 * What a spec means on one machine: which processes run on which loopback ports with which
 * environment, where HAProxy sits, and which native servers must be up. Pure functions of the
 * spec, shared by the launcher (pm2), the benchmark runner and the deployment generators.
 */
import { loadConnections } from './connections';
import { routedConnectionEnv, routedUpstreams, type HopRoute } from './hops';
import { encodeProcessConfig, PROCESS_ENV, processConfigOf } from './process-config';
import { rateLimitStoreOf, type Role, type VariantSpec } from './spec';

export const LOOPBACK = '127.0.0.1';
/** Replica i of a role listens on base + i (the brief's port plan). */
export const ROLE_BASE_PORT: Record<Role, number> = { monolith: 3000, gateway: 3100, leftover: 3200, exercise: 3300 };
/** transport grpc: a service replica's gRPC edge listens on its HTTP port + this (role bases stay 100 apart). */
export const GRPC_PORT_OFFSET = 1000;
export const HAPROXY_PORTS = { entry: 8080, leftover: 8081, exercise: 8082, stats: 8404 } as const;

export type NativeServer = 'postgres' | 'redis' | 'rabbitmq' | 'minio' | 'jaeger' | 'haproxy';
export type ProcessRole = Role | 'haproxy';

export interface VariantProcess {
  /** pm2 app name, e.g. sg-exercise-1. */
  name: string;
  role: ProcessRole;
  replica: number;
  /** The port it listens on (HAProxy: its first frontend). */
  port: number;
  /** URL that answers 200 once the process is ready. */
  healthUrl: string;
  /** transport grpc: host:port whose grpc.health.v1 Check must answer SERVING too. */
  grpcHealthAddress?: string;
  env: Record<string, string>;
}

/** Where a role's callers should send requests: a single replica or an HAProxy frontend. */
export interface Upstreams {
  leftoverUrl: string;
  exerciseUrl: string;
  /** transport grpc: grpc-js targets (every replica; the gateway balances them itself). */
  leftoverGrpc?: string;
  exerciseGrpc?: string;
}

export interface BalancedFrontend {
  /** entry | leftover | exercise; gateway: HAProxy as the gateway (gateway.engine haproxy). */
  name: 'entry' | 'leftover' | 'exercise' | 'gateway';
  port: number;
  role: Role;
  /** The gateway frontend has none of its own: it routes to `routes`. */
  servers: { name: string; port: number }[];
  /** Only the gateway frontend: each callee's replicas, chosen per request by the gateway's route table. */
  routes?: Record<'leftover' | 'exercise', { name: string; port: number }[]>;
}

/** The roles a topology runs as Node processes, in start order (callees before their callers). */
export function variantRoles(spec: VariantSpec): Role[] {
  if (spec.topology === 'monolith') return ['monolith'];
  return gatewayIsHaproxy(spec) ? ['leftover', 'exercise'] : ['leftover', 'exercise', 'gateway'];
}

/** gateway.engine haproxy: the variant's HAProxy is the gateway; no Node gateway runs. */
export function gatewayIsHaproxy(spec: VariantSpec): boolean {
  return spec.topology === 'msa' && spec.gateway.engine === 'haproxy';
}

export function replicaCount(spec: VariantSpec, role: Role): number {
  return spec.replicas[role] ?? 0;
}

export function processName(role: ProcessRole, replica = 0): string {
  return role === 'haproxy' ? 'sg-haproxy' : `sg-${role}-${replica}`;
}

export function replicaPort(role: Role, replica: number): number {
  return ROLE_BASE_PORT[role] + replica;
}

/** Where a service replica's gRPC edge listens (transport grpc). */
export function grpcPort(httpPort: number): number {
  return httpPort + GRPC_PORT_OFFSET;
}

/** True when the role serves the internal hop over gRPC (msa callees of a transport grpc spec). */
export function servesGrpc(spec: VariantSpec, role: ProcessRole): boolean {
  return spec.transport === 'grpc' && (role === 'leftover' || role === 'exercise');
}

/**
 * HAProxy frontends the spec needs: the gateway when `gateway.engine: haproxy` (on the gateway's
 * port), the entry when `entry: haproxy`, plus an internal one per replicated callee.
 */
export function balancedFrontends(spec: VariantSpec): BalancedFrontend[] {
  const servers = (role: Role) =>
    Array.from({ length: replicaCount(spec, role) }, (_, i) => ({ name: processName(role, i), port: replicaPort(role, i) }));
  const frontends: BalancedFrontend[] = [];
  if (gatewayIsHaproxy(spec)) {
    const routes = { leftover: servers('leftover'), exercise: servers('exercise') };
    frontends.push({ name: 'gateway', port: replicaPort('gateway', 0), role: 'gateway', servers: [], routes });
  }
  const entryRole: Role = spec.topology === 'monolith' ? 'monolith' : 'gateway';
  if (spec.entry === 'haproxy') frontends.push({ name: 'entry', port: HAPROXY_PORTS.entry, role: entryRole, servers: servers(entryRole) });
  // transport grpc: the gateway's gRPC channels balance the callees themselves.
  if (spec.topology === 'msa' && spec.transport === 'http') {
    for (const role of ['leftover', 'exercise'] as const) {
      if (replicaCount(spec, role) > 1) frontends.push({ name: role, port: HAPROXY_PORTS[role], role, servers: servers(role) });
    }
  }
  return frontends;
}

export function needsHaproxy(spec: VariantSpec): boolean {
  return balancedFrontends(spec).length > 0;
}

/** The URL clients (k6, the SPA) use. */
export function entryUrl(spec: VariantSpec, host = LOOPBACK): string {
  if (spec.entry === 'haproxy') return `http://${host}:${HAPROXY_PORTS.entry}`;
  const role: Role = spec.topology === 'monolith' ? 'monolith' : 'gateway';
  return `http://${host}:${replicaPort(role, 0)}`;
}

/**
 * On loopback: the internal HAProxy frontend when a callee is replicated, else its single replica;
 * with transport grpc, the gRPC targets listing every replica (the URLs then name replica 0).
 */
export function loopbackUpstreams(spec: VariantSpec): Upstreams {
  const url = (role: 'leftover' | 'exercise') =>
    replicaCount(spec, role) > 1 && spec.transport === 'http' ? `http://${LOOPBACK}:${HAPROXY_PORTS[role]}` : `http://${LOOPBACK}:${replicaPort(role, 0)}`;
  if (spec.transport !== 'grpc') return { leftoverUrl: url('leftover'), exerciseUrl: url('exercise') };
  const target = (role: 'leftover' | 'exercise') =>
    `ipv4:${Array.from({ length: replicaCount(spec, role) }, (_, i) => `${LOOPBACK}:${grpcPort(replicaPort(role, i))}`).join(',')}`;
  return { leftoverUrl: url('leftover'), exerciseUrl: url('exercise'), leftoverGrpc: target('leftover'), exerciseGrpc: target('exercise') };
}

/**
 * The environment of one replica: its process config as one JSON value (SG_PROCESS) and the
 * OpenTelemetry resource names. Host, port and upstream URLs are parameters so the
 * compose/Kubernetes generators can reuse it with their own addresses.
 */
export function serviceEnv(
  spec: VariantSpec,
  role: Role,
  replica: number,
  where: { host: string; port: number; upstreams: Upstreams; exposedOn?: string; acceptWeakIsolation?: true },
): Record<string, string> {
  return {
    [PROCESS_ENV]: encodeProcessConfig(processConfigOf(spec, role, replica, where)),
    OTEL_SERVICE_NAME: `shellgrade-${role}`,
    OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${processName(role, replica)},deployment.environment=${spec.name}`,
    ...spec.env,
  };
}

/** Where a process listening on `listen` answers this machine's health checks. */
const reachableHost = (listen: string) => (listen === '0.0.0.0' || listen === '::' ? LOOPBACK : listen);

export interface PlacementOptions {
  /** Address the entry (HAProxy's entry frontend, or the single entry replica) listens on; loopback by default. */
  listen?: string;
  /** `--force-exposed`: graders with weaker isolation than promised may serve beyond loopback (ProcessConfig.acceptWeakIsolation). */
  acceptWeakIsolation?: boolean;
  /** `--hop-via`: one internal hop through a fault proxy's address (hops.ts). */
  hop?: HopRoute;
}

/** Every process of the variant on this machine: service replicas (callees first), then HAProxy. */
export function variantProcesses(spec: VariantSpec, options: PlacementOptions = {}): VariantProcess[] {
  const upstreams = routedUpstreams(loopbackUpstreams(spec), options.hop);
  const hopEnv = options.hop ? routedConnectionEnv(options.hop, loadConnections()) : {};
  const entryRole: Role = spec.topology === 'monolith' ? 'monolith' : 'gateway';
  const processes: VariantProcess[] = [];
  for (const role of variantRoles(spec)) {
    for (let i = 0; i < replicaCount(spec, role); i++) {
      const port = replicaPort(role, i);
      // Only a directly reached entry replica leaves loopback; everything behind it stays there.
      const host = spec.entry === 'direct' && role === entryRole ? (options.listen ?? LOOPBACK) : LOOPBACK;
      processes.push({
        name: processName(role, i),
        role,
        replica: i,
        port,
        healthUrl: `http://${reachableHost(host)}:${port}/health`,
        ...(servesGrpc(spec, role) ? { grpcHealthAddress: `${reachableHost(host)}:${grpcPort(port)}` } : {}),
        env: {
          ...serviceEnv(spec, role, i, {
            host,
            port,
            upstreams,
            ...(options.listen ? { exposedOn: options.listen } : {}),
            ...(options.acceptWeakIsolation ? { acceptWeakIsolation: true as const } : {}),
          }),
          ...hopEnv,
        },
      });
    }
  }
  const frontends = balancedFrontends(spec);
  if (frontends.length > 0) {
    // Healthy once its first frontend routes /health to a live backend.
    const first = frontends[0];
    const host = isEntryFrontend(first) ? reachableHost(options.listen ?? LOOPBACK) : LOOPBACK;
    processes.push({
      name: processName('haproxy'),
      role: 'haproxy',
      replica: 0,
      port: first.port,
      healthUrl: `http://${host}:${first.port}/health`,
      env: {},
    });
  }
  return processes;
}

/** The frontend clients reach (`--listen` moves it): the balanced entry, or HAProxy as the gateway. */
export function isEntryFrontend(frontend: BalancedFrontend): boolean {
  return frontend.name === 'entry' || frontend.name === 'gateway';
}

/** Native servers the variant needs, in start order. PostgreSQL always (the one shared database). */
export function variantServers(spec: VariantSpec): NativeServer[] {
  const servers: NativeServer[] = ['postgres'];
  const redisRateLimits = spec.auth.rateLimits.enabled && variantRoles(spec).some((role) => rateLimitStoreOf(spec, role) === 'redis');
  if (spec.cache === 'redis' || spec.dispatch === 'bullmq' || redisRateLimits) servers.push('redis');
  // dispatch pipeline: its filters' queues are RabbitMQ's.
  if (spec.dispatch === 'rabbitmq' || spec.dispatch === 'pipeline') servers.push('rabbitmq');
  if (spec.storage === 'minio') servers.push('minio');
  if (spec.tracing.enabled) servers.push('jaeger');
  if (needsHaproxy(spec)) servers.push('haproxy');
  return servers;
}
