// A variant spec as an open multi-class queueing network: one station per role (replicas =
// servers), the balancer, PostgreSQL and the broker, with per-class demands from a run.
import { gatewayIsHaproxy, maxConcurrentGradings, type VariantSpec } from '@shellgrade/variant';
import { CLASSES, type ClassDemands, type Demands } from './demands';

export interface Station {
  name: string;
  /** Parallel servers: a Node process serves one request at a time on its event loop. */
  servers: number;
  /** CPU seconds per job of each class (one job of each class per iteration). */
  demands: ClassDemands;
  /** Zero by the model's assumption (not for want of a measurement): never listed as unmeasured. */
  assumedZero?: boolean;
}

export interface QueueingNetwork {
  variant: string;
  stations: Station[];
  /** The machine's cores, shared by every station and the load generator (processor sharing). */
  cores: number;
  /** CPU per iteration outside the stations (the load generator), per class, counted against the cores. */
  outsideDemands: ClassDemands;
  /** Stations of the variant the demands' run did not have (e.g. a broker, from an msa-1-2 run): left out, not free. */
  unmeasured: string[];
}

const sum = (d: ClassDemands) => CLASSES.reduce((s, c) => s + d[c], 0);

/** Whether the variant runs HAProxy (in front of the entry, or between replicated msa roles). */
export function hasBalancer(spec: VariantSpec): boolean {
  if (spec.entry === 'haproxy' || gatewayIsHaproxy(spec)) return true;
  const r = spec.replicas;
  return spec.topology === 'msa' && ((r.leftover ?? 1) > 1 || (r.exercise ?? 1) > 1);
}

/** Gradings one process runs at once: a queue hands it `prefetch` jobs; inline, the grader's own cap. */
function gradingsAtOnce(spec: VariantSpec, cores: number): number {
  return spec.dispatch === 'inline' ? maxConcurrentGradings(spec.grader, cores) : spec.broker.prefetch;
}

/**
 * The role that grades, as stations. Blocking grader (the paper): the grading runs on the
 * process's event loop, one station. Otherwise the grading runs in child processes beside the
 * loop: a `<role>-grader` station with the process's concurrency as servers, per replica — the
 * broker's prefetch when a queue feeds it, else the grader's maxConcurrent (resolved per core by the spec's maxConcurrentGradings)
 * — and the rest of the SPS on the loop.
 */
function gradingRole(spec: VariantSpec, role: string, replicas: number, app: ClassDemands, gradingCpuS: number | null, cores: number): Station[] {
  if (spec.grader.exec === 'blocking') return [{ name: role, servers: replicas, demands: app }];
  // Without a grader baseline the SPS's share on the loop is unknown: all of it goes to the grader (said in the notes).
  const grading = Math.min(app.sps, gradingCpuS ?? app.sps);
  return [
    { name: role, servers: replicas, demands: { session: app.session, sps: app.sps - grading }, assumedZero: gradingCpuS === null },
    { name: `${role}-grader`, servers: replicas * gradingsAtOnce(spec, cores), demands: { session: 0, sps: grading } },
  ];
}

export function networkOf(spec: VariantSpec, demands: Demands, cores: number): QueueingNetwork {
  const d = demands.components;
  const stations: Station[] = [];
  if (hasBalancer(spec)) stations.push({ name: 'haproxy', servers: 1, demands: d.haproxy });
  if (spec.topology === 'monolith') {
    stations.push(...gradingRole(spec, 'monolith', spec.replicas.monolith ?? 1, d.app, demands.gradingCpuS, cores));
  } else {
    // gateway.engine haproxy: the HAProxy station above is the gateway; no Node gateway runs.
    if (!gatewayIsHaproxy(spec)) stations.push({ name: 'gateway', servers: spec.replicas.gateway ?? 1, demands: d.gateway });
    stations.push({ name: 'leftover', servers: spec.replicas.leftover ?? 1, demands: { session: d.app.session, sps: 0 } });
    stations.push(...gradingRole(spec, 'exercise', spec.replicas.exercise ?? 1, { session: 0, sps: d.app.sps }, demands.gradingCpuS, cores));
  }
  if (spec.dispatch !== 'inline') stations.push({ name: 'broker', servers: 1, demands: d.broker });
  // PostgreSQL forks a backend per connection: it can use every core.
  stations.push({ name: 'postgres', servers: cores, demands: d.postgres });
  return {
    variant: spec.name,
    stations: stations.filter((s) => sum(s.demands) > 0),
    cores,
    outsideDemands: d.loadgen,
    unmeasured: stations.filter((s) => sum(s.demands) === 0 && !s.assumedZero).map((s) => s.name),
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
  const cpu = net.stations.reduce((t, s) => t + sum(s.demands), sum(net.outsideDemands));
  bounds.push({ station: 'cpu', rate: net.cores / cpu });
  return bounds.sort((a, b) => a.rate - b.rate);
}
