/**
 * HAProxy configuration from a variant spec, rendered through infra/haproxy/haproxy.cfg.tmpl
 * (Handlebars). Natively every replica is a fixed loopback server; in containers and clusters
 * the replicas are found by DNS with server-template.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { balancedFrontends, HAPROXY_PORTS, LOOPBACK, type BalancedFrontend, type VariantSpec } from '@shellgrade/variant';
import { HAPROXY_TEMPLATE } from '../paths';

export interface HaproxyFrontendModel {
  name: string;
  port: number;
  bindAddress: string;
  servers: { name: string; address: string }[];
  serverTemplate?: { prefix: string; count: number; address: string };
  /** Appended to every server line, e.g. " maxconn 8". */
  serverOptions: string;
}

export interface HaproxyModel {
  variant: string;
  placement: string;
  bindAddress: string;
  statsPort: number;
  resolvers: boolean;
  maxconn: number;
  retries: number;
  balance: string;
  timeouts: VariantSpec['haproxy']['timeouts'];
  frontends: HaproxyFrontendModel[];
}

/** How a deployment reaches the replicas of a balanced role. */
export type Placement =
  | { kind: 'loopback' }
  | { kind: 'dns'; label: string; address: (frontend: BalancedFrontend) => string; only?: BalancedFrontend['name'][] };

/**
 * `listen`: where the native entry frontend binds (loopback unless `variant up --listen`); the
 * internal frontends and the stats page stay on loopback.
 */
export function haproxyModel(spec: VariantSpec, placement: Placement = { kind: 'loopback' }, listen = LOOPBACK): HaproxyModel {
  const bindAddress = placement.kind === 'loopback' ? LOOPBACK : '*';
  const bindOf = (f: BalancedFrontend) => (placement.kind === 'loopback' && f.name === 'entry' ? listen : bindAddress);
  const serverOptions = spec.haproxy.serverMaxconn ? ` maxconn ${spec.haproxy.serverMaxconn}` : '';
  const frontends = balancedFrontends(spec)
    .filter((f) => placement.kind === 'loopback' || !placement.only || placement.only.includes(f.name))
    .map((f): HaproxyFrontendModel => {
      if (placement.kind === 'loopback') {
        return { name: f.name, port: f.port, bindAddress: bindOf(f), serverOptions, servers: f.servers.map((s) => ({ name: s.name, address: `${LOOPBACK}:${s.port}` })) };
      }
      return {
        name: f.name,
        port: f.port,
        bindAddress,
        serverOptions,
        servers: [],
        serverTemplate: { prefix: f.role, count: f.servers.length, address: placement.address(f) },
      };
    });
  return {
    variant: spec.name,
    placement: placement.kind === 'loopback' ? 'native processes on loopback' : placement.label,
    bindAddress,
    statsPort: HAPROXY_PORTS.stats,
    resolvers: placement.kind === 'dns',
    maxconn: spec.haproxy.maxconn,
    retries: spec.haproxy.retries,
    balance: spec.haproxy.balance,
    timeouts: spec.haproxy.timeouts,
    frontends,
  };
}

let compiled: Handlebars.TemplateDelegate<HaproxyModel> | undefined;

/** Renders haproxy.cfg; `strict` makes a field missing from the model an error, not a blank. */
export function renderHaproxyConfig(model: HaproxyModel): string {
  compiled ??= Handlebars.compile<HaproxyModel>(readFileSync(HAPROXY_TEMPLATE, 'utf8'), { noEscape: true, strict: true });
  return compiled(model);
}
