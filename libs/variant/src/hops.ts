/**
 * One internal hop routed through another address (a fault proxy): the callers of that
 * hop are told the proxy's host:port instead of the real one, and the proxy forwards to the real
 * upstream (`hopUpstream`). Every other hop keeps its address.
 */
import type { Connections } from './connections';
import { VariantSpecError } from './loader';
import type { VariantSpec } from './spec';

/** exercise/leftover: the gateway's calls to that service; postgres/rabbitmq/redis: every service's connection. */
export const HOPS = ['exercise', 'leftover', 'postgres', 'rabbitmq', 'redis'] as const;
export type Hop = (typeof HOPS)[number];

/** The callers' service upstreams (processes.ts Upstreams; named here so the two files do not import each other). */
type ServiceUpstreams = { leftoverUrl: string; exerciseUrl: string };

export interface HopRoute {
  hop: Hop;
  /** host:port the callers use instead of the real upstream. */
  via: string;
}

const CONNECTION_OF: Record<'postgres' | 'rabbitmq' | 'redis', 'DATABASE_URL' | 'AMQP_URL' | 'REDIS_URL'> = {
  postgres: 'DATABASE_URL',
  rabbitmq: 'AMQP_URL',
  redis: 'REDIS_URL',
};

/** `exercise=127.0.0.1:28600` (launcher flag --hop-via). */
export function parseHopRoute(text: string): HopRoute {
  const m = /^([a-z]+)=([^:=\s]+:\d{1,5})$/.exec(text);
  if (!m || !(HOPS as readonly string[]).includes(m[1])) throw new VariantSpecError(`--hop-via expects <hop>=<host:port> with hop one of ${HOPS.join(', ')}, got "${text}"`);
  return { hop: m[1] as Hop, via: m[2] };
}

/** Why the hop cannot be routed in this spec, or null. */
export function hopRefusal(spec: VariantSpec, hop: Hop): string | null {
  if (hop === 'exercise' || hop === 'leftover') {
    if (spec.topology !== 'msa') return `${spec.name} has no ${hop} hop (topology ${spec.topology})`;
    // A gRPC channel balances the replicas itself: one proxy address would hide all but one.
    if (spec.transport !== 'http') return `the ${hop} hop of ${spec.name} is gRPC (only an HTTP hop goes through one proxy address)`;
  }
  return null;
}

function withHostPort(url: string, via: string): string {
  const u = new URL(url);
  u.host = via;
  u.searchParams.delete('host'); // a unix socket (connections.ts defaultDatabaseUrl) would bypass the proxy
  return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
}

/** The real host:port behind the hop: what the proxy forwards to. */
export function hopUpstream(hop: Hop, upstreams: ServiceUpstreams, connections: Pick<Connections, 'DATABASE_URL' | 'AMQP_URL' | 'REDIS_URL'>): string {
  const url = hop === 'exercise' ? upstreams.exerciseUrl : hop === 'leftover' ? upstreams.leftoverUrl : connections[CONNECTION_OF[hop]];
  return new URL(url).host;
}

/** The callers' upstreams with a service hop routed. */
export function routedUpstreams<U extends ServiceUpstreams>(upstreams: U, route: HopRoute | undefined): U {
  if (route?.hop === 'exercise') return { ...upstreams, exerciseUrl: withHostPort(upstreams.exerciseUrl, route.via) };
  if (route?.hop === 'leftover') return { ...upstreams, leftoverUrl: withHostPort(upstreams.leftoverUrl, route.via) };
  return upstreams;
}

/** The environment entry that points a server hop at the proxy (none for a service hop). */
export function routedConnectionEnv(route: HopRoute | undefined, connections: Pick<Connections, 'DATABASE_URL' | 'AMQP_URL' | 'REDIS_URL'>): Record<string, string> {
  if (!route || route.hop === 'exercise' || route.hop === 'leftover') return {};
  const key = CONNECTION_OF[route.hop];
  return { [key]: withHostPort(connections[key], route.via) };
}
