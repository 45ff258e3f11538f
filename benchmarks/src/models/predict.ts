// Prediction of one variant at one arrival rate, with one of two CPU models:
// - 'shared' (default): the two-level model of qn_solve.py — every station's demand is stretched by
//   its wait for one of the machine's cores, so CPU contention lengthens responses and moves the
//   saturation point below the utilisation-law bound;
// - 'bound': the stations alone (the cores only enter the utilisation-law bound), the first slice.
import { cpus } from 'node:os';
import { loadVariant } from '@shellgrade/variant';
import { CLASSES, REQUESTS_PER_ITERATION, measureDemands, type Demands, type RequestClass } from './demands';
import { networkOf, saturationBounds, type Bound, type QueueingNetwork } from './network';
import { solveNetwork, type SolverInput, type SolverOutput } from './solver';

export interface StationPrediction {
  name: string;
  servers: number;
  demands: Record<RequestClass, number>;
  /** Busy share of the station's servers (0..1) at the predicted throughput (with the shared CPU: including waits for a core). */
  utilization: number;
  /** Cores the station's work keeps busy: throughput × CPU demand (waiting for a core uses none). */
  cpuCores: number;
}

export type CpuModel = 'shared' | 'bound';
export const CPU_MODELS: readonly CpuModel[] = ['shared', 'bound'];

export interface Prediction {
  schema: 'shellgrade.model-prediction/2';
  cpuModel: CpuModel;
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
  /** The machine's cores as a station: every process and the load generator share them; stretch per station with the shared model. */
  cpu: { cores: number; utilization: number; stretch?: Record<string, number> };
  bottleneck: string;
  saturationRate: number;
  bounds: Bound[];
}

const REQUESTS = CLASSES.reduce((s, c) => s + REQUESTS_PER_ITERATION[c], 0);

const total = (d: Record<RequestClass, number>) => CLASSES.reduce((s, c) => s + d[c], 0);

function solverInput(net: QueueingNetwork, rate: number, cpuModel: CpuModel): SolverInput {
  return {
    name: net.variant,
    // A class with no demand anywhere visits no station: the solver has nothing to route.
    classes: CLASSES.filter((c) => net.stations.some((s) => s.demands[c] > 0)).map((c) => ({ name: c, arrivalRate: rate })),
    stations: net.stations.map((s) => ({ name: s.name, servers: s.servers, demands: s.demands })),
    ...(cpuModel === 'shared' ? { cpu: { cores: net.cores, outside: net.outsideDemands } } : {}),
  };
}

/** Where the variant saturates: the solver's search with the shared CPU, the utilisation-law bound otherwise. */
function saturationPoint(net: QueueingNetwork, arrivalRate: number, shared: SolverOutput | null): Bound {
  if (shared?.cpu) return { station: shared.cpu.saturation.station, rate: shared.cpu.saturation.scale * arrivalRate };
  return saturationBounds(net)[0];
}

export function predict(net: QueueingNetwork, demandsFrom: string, arrivalRate: number, solve = solveNetwork, cpuModel: CpuModel = 'bound'): Prediction {
  const bounds = saturationBounds(net);
  // The shared model always asks the solver (it finds the saturation point); the bound model only below the bound.
  const shared = cpuModel === 'shared' ? solve(solverInput(net, arrivalRate, cpuModel)) : null;
  const point = saturationPoint(net, arrivalRate, shared);
  const saturated = arrivalRate >= point.rate;
  const x = saturated ? point.rate : arrivalRate;
  const solved = saturated ? null : (shared ?? solve(solverInput(net, x, cpuModel)));
  const responseTimeS = Object.fromEntries(
    CLASSES.map((c) => [c, solved ? Object.values(solved.stations).reduce((s, byClass) => s + (byClass[c]?.respT ?? 0), 0) : null]),
  ) as Record<RequestClass, number | null>;
  const stations = net.stations.map((s) => ({
    name: s.name,
    servers: s.servers,
    demands: s.demands,
    utilization: solved ? CLASSES.reduce((u, c) => u + (solved.stations[s.name]?.[c]?.util ?? 0), 0) : Math.min(1, (x * total(s.demands) * (shared?.cpu?.stretch[s.name] ?? 1)) / s.servers),
    cpuCores: x * total(s.demands),
  }));
  const cpuDemand = net.stations.reduce((t, s) => t + total(s.demands), total(net.outsideDemands));
  return {
    schema: 'shellgrade.model-prediction/2',
    cpuModel,
    variant: net.variant,
    demandsFrom,
    solver: solved?.solver ?? shared?.solver ?? null,
    arrivalRate,
    saturated,
    throughput: { iterationsPerS: x, requestsPerS: x * REQUESTS, spsPerS: x },
    responseTimeS,
    stations,
    unmeasured: net.unmeasured,
    cpu: { cores: net.cores, utilization: (x * cpuDemand) / net.cores, ...(shared?.cpu ? { stretch: shared.cpu.stretch } : {}) },
    bottleneck: point.station,
    saturationRate: point.rate,
    bounds,
  };
}

/** The whole chain for the CLI: spec + demands + rate → prediction. */
export function predictVariant(spec: Parameters<typeof networkOf>[0], demands: Demands, arrivalRate: number, cores: number, cpuModel: CpuModel = 'shared'): Prediction {
  return predict(networkOf(spec, demands, cores), demands.source, arrivalRate, solveNetwork, cpuModel);
}

/** The predicted saturation rate of a preset on this machine (for `bench calibrate --from-model`). */
export function predictSaturation(variant: string, demandsRun: string): { rate: number; station: string; demandsFrom: string } {
  const demands = measureDemands(demandsRun);
  // The rate only scales the search: any positive offered load gives the same saturation point.
  const p = predictVariant(loadVariant(variant), demands, 1, cpus().length);
  return { rate: p.saturationRate, station: p.bottleneck, demandsFrom: demandsRun };
}
