// Prediction of one variant at one arrival rate: the asymptotic bounds give the saturation rate
// and the bottleneck; below saturation LINE's open MVA gives response times and utilisations.
import { CLASSES, REQUESTS_PER_ITERATION, type Demands, type RequestClass } from './demands';
import { networkOf, saturationBounds, type Bound, type QueueingNetwork } from './network';
import { solveNetwork, type SolverOutput } from './solver';

export interface StationPrediction {
  name: string;
  servers: number;
  demands: Record<RequestClass, number>;
  /** Busy share of the station's servers (0..1) at the predicted throughput. */
  utilization: number;
}

export interface Prediction {
  schema: 'shellgrade.model-prediction/1';
  variant: string;
  demandsFrom: string;
  solver: string | null;
  /** Offered load, iterations of scenario R per second (one job of each class each). */
  arrivalRate: number;
  saturated: boolean;
  /** Iterations/s the variant completes: the arrival rate, or the saturation rate past it. */
  throughput: { iterationsPerS: number; requestsPerS: number; spsPerS: number };
  /** Mean response time per class and iteration, seconds (summed over the stations it visits); null when saturated. */
  responseTimeS: Record<RequestClass, number | null>;
  stations: StationPrediction[];
  /** Stations the demands' run had no figure for, left out of the network (the prediction is optimistic there). */
  unmeasured: string[];
  /** The machine's cores as a station: every process and the load generator share them. */
  cpu: { cores: number; utilization: number };
  bottleneck: string;
  saturationRate: number;
  bounds: Bound[];
}

const REQUESTS = CLASSES.reduce((s, c) => s + REQUESTS_PER_ITERATION[c], 0);

export function predict(net: QueueingNetwork, demandsFrom: string, arrivalRate: number, solve = solveNetwork): Prediction {
  const bounds = saturationBounds(net);
  const [first] = bounds;
  const saturated = arrivalRate >= first.rate;
  const x = saturated ? first.rate : arrivalRate;
  const total = (d: Record<RequestClass, number>) => CLASSES.reduce((s, c) => s + d[c], 0);
  let solved: SolverOutput | null = null;
  if (!saturated) {
    solved = solve({
      name: net.variant,
      classes: CLASSES.map((c) => ({ name: c, arrivalRate: x })),
      stations: net.stations.map((s) => ({ name: s.name, servers: s.servers, demands: s.demands })),
    });
  }
  const responseTimeS = Object.fromEntries(
    CLASSES.map((c) => [c, solved ? Object.values(solved.stations).reduce((s, byClass) => s + (byClass[c]?.respT ?? 0), 0) : null]),
  ) as Record<RequestClass, number | null>;
  const stations = net.stations.map((s) => ({
    name: s.name,
    servers: s.servers,
    demands: s.demands,
    utilization: solved ? CLASSES.reduce((u, c) => u + (solved.stations[s.name]?.[c]?.util ?? 0), 0) : (x * total(s.demands)) / s.servers,
  }));
  const cpuDemand = net.stations.reduce((t, s) => t + total(s.demands), net.outsideDemand);
  return {
    schema: 'shellgrade.model-prediction/1',
    variant: net.variant,
    demandsFrom,
    solver: solved?.solver ?? null,
    arrivalRate,
    saturated,
    throughput: { iterationsPerS: x, requestsPerS: x * REQUESTS, spsPerS: x },
    responseTimeS,
    stations,
    unmeasured: net.unmeasured,
    cpu: { cores: net.cores, utilization: (x * cpuDemand) / net.cores },
    bottleneck: first.station,
    saturationRate: first.rate,
    bounds,
  };
}

/** The whole chain for the CLI: spec + demands + rate → prediction. */
export function predictVariant(spec: Parameters<typeof networkOf>[0], demands: Demands, arrivalRate: number, cores: number): Prediction {
  return predict(networkOf(spec, demands, cores), demands.source, arrivalRate);
}
