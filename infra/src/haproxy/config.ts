/**
 * HAProxy configuration from a variant spec, rendered through infra/haproxy/haproxy.cfg.tmpl
 * (Handlebars). Natively every replica is a fixed loopback server; in containers and clusters
 * the replicas are found by DNS with server-template.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { balancedFrontends, HAPROXY_PORTS, isEntryFrontend, LOOPBACK, type BalancedFrontend, type VariantSpec } from '@shellgrade/variant';
import { HAPROXY_TEMPLATE } from '../paths';
import { gatewayRouting, problemAnswer, type GatewayRouting, type ProblemAnswer } from './gateway-frontend';

interface ServersModel {
  servers: { name: string; address: string }[];
  serverTemplate?: { prefix: string; count: number; address: string };
}

export interface HaproxyFrontendModel extends ServersModel {
  name: string;
  port: number;
  bindAddress: string;
  /**
   * Clients reach this frontend themselves (the entry, or HAProxy as the gateway, with nothing in
   * front): it removes the forwarding headers a client sent and sets its own (see the template).
   */
  clientFacing: boolean;
  /** Appended to every server line, e.g. " maxconn 8". */
  serverOptions: string;
  /**
   * The backend of the gateway frontend that already balances this role (gateway.engine haproxy):
   * used instead of a backend of its own, so each replica is health-checked once, not twice.
   */
  sharedBackend?: string;
  /** HAProxy as the gateway (gateway.engine haproxy): its routing, and a backend per routed service. */
  gateway?: GatewayRouting & { backends: (ServersModel & { service: 'leftover' | 'exercise' })[] };
}

export interface HaproxyModel {
  variant: string;
  placement: string;
  bindAddress: string;
  statsPort: number;
  /**
   * HAProxy's stats page (the launcher reads its servers' state there): natively only, on loopback,
   * for callers that name this machine. In containers the port answers the readiness probe only.
   */
  statsPage: boolean;
  /** What a caller naming another site gets from the stats port: 404, as the services answer it. */
  statsRefusal: ProblemAnswer;
  resolvers: boolean;
  maxconn: number;
  retries: number;
  balance: string;
  timeouts: VariantSpec['haproxy']['timeouts'];
  frontends: HaproxyFrontendModel[];
}

/**
 * How a deployment reaches the replicas of a balanced role. `entryBehind`: what sits in front of
 * the entry frontend and sets the forwarding headers itself (the Kubernetes Ingress): the entry
 * then keeps them, as the services' auth.trustedProxies says whom to believe.
 */
export type Placement =
  | { kind: 'loopback' }
  | { kind: 'dns'; label: string; address: (frontend: BalancedFrontend) => string; only?: BalancedFrontend['name'][]; entryBehind?: string };

/**
 * `listen`: where the native entry frontend binds (loopback unless `variant up --listen`); the
 * internal frontends and the stats page stay on loopback.
 */
export function haproxyModel(spec: VariantSpec, placement: Placement = { kind: 'loopback' }, listen = LOOPBACK): HaproxyModel {
  const bindAddress = placement.kind === 'loopback' ? LOOPBACK : '*';
  const bindOf = (f: BalancedFrontend) => (placement.kind === 'loopback' && isEntryFrontend(f) ? listen : bindAddress);
  const serverOptions = spec.haproxy.serverMaxconn ? ` maxconn ${spec.haproxy.serverMaxconn}` : '';
  const serversOf = (f: BalancedFrontend): ServersModel =>
    placement.kind === 'loopback'
      ? { servers: f.servers.map((s) => ({ name: s.name, address: `${LOOPBACK}:${s.port}` })) }
      : { servers: [], serverTemplate: { prefix: f.role, count: f.servers.length, address: placement.address(f) } };
  const all = balancedFrontends(spec);
  const gatewayBackendOf = (f: BalancedFrontend) =>
    (f.name === 'leftover' || f.name === 'exercise') && all.some((g) => g.routes) ? { sharedBackend: `be_gateway_${f.name}` } : {};
  const frontends = all
    .filter((f) => placement.kind === 'loopback' || !placement.only || placement.only.includes(f.name))
    .map((f): HaproxyFrontendModel => ({
      name: f.name,
      port: f.port,
      bindAddress: bindOf(f),
      clientFacing: isEntryFrontend(f) && (placement.kind === 'loopback' || placement.entryBehind === undefined),
      serverOptions,
      ...serversOf(f),
      ...(f.routes ? { gateway: gatewayModel(spec, f.routes, serversOf) } : {}),
      ...gatewayBackendOf(f),
    }));
  return {
    variant: spec.name,
    placement: placement.kind === 'loopback' ? 'native processes on loopback' : placement.label,
    bindAddress,
    statsPort: HAPROXY_PORTS.stats,
    statsPage: placement.kind === 'loopback',
    statsRefusal: problemAnswer(404, 'not found'),
    resolvers: placement.kind === 'dns',
    maxconn: spec.haproxy.maxconn,
    retries: spec.haproxy.retries,
    balance: spec.haproxy.balance,
    timeouts: spec.haproxy.timeouts,
    frontends,
  };
}

/** The gateway frontend's routing and, per routed service, its replicas as a backend of their own. */
function gatewayModel(
  spec: VariantSpec,
  routes: NonNullable<BalancedFrontend['routes']>,
  serversOf: (f: BalancedFrontend) => ServersModel,
): NonNullable<HaproxyFrontendModel['gateway']> {
  const backends = (['leftover', 'exercise'] as const).map((service) => ({
    service,
    ...serversOf({ name: service, role: service, port: 0, servers: routes[service] }),
  }));
  return { ...gatewayRouting(spec.http.corsOrigins, spec.gateway.upstreamTimeoutMs), backends };
}

let compiled: Handlebars.TemplateDelegate<HaproxyModel> | undefined;

/** Renders haproxy.cfg; `strict` makes a field missing from the model an error, not a blank. */
export function renderHaproxyConfig(model: HaproxyModel): string {
  compiled ??= Handlebars.compile<HaproxyModel>(readFileSync(HAPROXY_TEMPLATE, 'utf8'), { noEscape: true, strict: true });
  return compiled(model);
}
