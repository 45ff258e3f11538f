// A variant spec as an open multi-class queueing network: one station per role (replicas =
// servers), the balancer, PostgreSQL and the broker, with per-class demands from a run.
import type { VariantSpec } from '@shellgrade/variant';
import { CLASSES, type ClassDemands, type Demands } from './demands';

export interface Station {
  name: string;
  /** Parallel servers: a Node process serves one request at a time on its event loop. */
  servers: number;
  /** CPU seconds per job of each class (one job of each class per iteration). */
  demands: ClassDemands;
}

export interface QueueingNetwork {
  variant: string;
  stations: Station[];
  /** The machine's cores, shared by every station and the load generator (processor sharing). */
  cores: number;
  /** CPU per iteration outside the stations (the load generator), counted against the cores. */
  outsideDemand: number;
  /** Stations of the variant the demands' run did not have (e.g. a broker, from an msa-1-2 run): left out, not free. */
  unmeasured: string[];
}

const sum = (d: ClassDemands) => CLASSES.reduce((s, c) => s + d[c], 0);

/** Whether the variant runs HAProxy (in front of the entry, or between replicated msa roles). */
export function hasBalancer(spec: VariantSpec): boolean {
  if (spec.entry === 'haproxy') return true;
  const r = spec.replicas;
  return spec.topology === 'msa' && ((r.leftover ?? 1) > 1 || (r.exercise ?? 1) > 1);
}

export function networkOf(spec: VariantSpec, demands: Demands, cores: number): QueueingNetwork {
  const d = demands.components;
  const stations: Station[] = [];
  if (hasBalancer(spec)) stations.push({ name: 'haproxy', servers: 1, demands: d.haproxy });
  if (spec.topology === 'monolith') {
    stations.push({ name: 'monolith', servers: spec.replicas.monolith ?? 1, demands: d.app });
  } else {
    stations.push({ name: 'gateway', servers: spec.replicas.gateway ?? 1, demands: d.gateway });
    stations.push({ name: 'leftover', servers: spec.replicas.leftover ?? 1, demands: { session: d.app.session, sps: 0 } });
    stations.push({ name: 'exercise', servers: spec.replicas.exercise ?? 1, demands: { session: 0, sps: d.app.sps } });
  }
  if (spec.dispatch !== 'inline') stations.push({ name: 'broker', servers: 1, demands: d.broker });
  // PostgreSQL forks a backend per connection: it can use every core.
  stations.push({ name: 'postgres', servers: cores, demands: d.postgres });
  return {
    variant: spec.name,
    stations: stations.filter((s) => sum(s.demands) > 0),
    cores,
    outsideDemand: sum(d.loadgen),
    unmeasured: stations.filter((s) => sum(s.demands) === 0).map((s) => s.name),
  };
}

export interface Bound {
  station: string;
  /** Iterations/s at which this station reaches 100 % utilisation: servers / Σ demands. */
  rate: number;
}

/** Asymptotic bounds (utilisation law): each station's saturation rate, and the shared CPU's. */
export function saturationBounds(net: QueueingNetwork): Bound[] {
  const bounds = net.stations.map((s) => ({ station: s.name, rate: s.servers / sum(s.demands) }));
  const cpu = net.stations.reduce((t, s) => t + sum(s.demands), net.outsideDemand);
  bounds.push({ station: 'cpu', rate: net.cores / cpu });
  return bounds.sort((a, b) => a.rate - b.rate);
}
