// Runs benchmarks/models/qn_solve.py (LINE's MVA, PyPI line-solver) on one network description.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../paths';
import { toolsPython } from '../tools-python';


export interface SolverStation {
  name: string;
  servers: number;
  demands: Record<string, number>;
}

export type SolverClass = { name: string; arrivalRate: number } | { name: string; population: number; thinkTime: number };

export interface SolverInput {
  name: string;
  classes: SolverClass[];
  stations: SolverStation[];
  /** The shared-CPU (two-level) model: the machine's cores and the CPU outside every station, per class. */
  cpu?: { cores: number; outside: Record<string, number> };
}

export interface StationClassResult {
  util: number;
  /** Seconds per visit (waiting + service). */
  respT: number;
  qLen: number;
  tput: number;
}

export interface SharedCpuResult {
  /** CPU response / CPU demand of each station's work at the offered load (≥ 1; Infinity past the cores' capacity). */
  stretch: Record<string, number>;
  /** Busy share of each station at its stretched demands, and of the cores ("cpu"). */
  util: Record<string, number>;
  /** The factor on the offered arrival rates where the first station (or the cores) saturates, and which. */
  saturation: { scale: number; station: string };
}

export interface SolverOutput {
  solver: string;
  /** Empty when the shared-CPU model finds the offered load past saturation. */
  stations: Record<string, Record<string, StationClassResult>>;
  cpu?: SharedCpuResult;
}

export function pythonBin(): string {
  return toolsPython();
}

export function solveNetwork(input: SolverInput): SolverOutput {
  const script = join(repoRoot(), 'benchmarks', 'models', 'qn_solve.py');
  const res = spawnSync(pythonBin(), [script], { input: JSON.stringify(input), encoding: 'utf8', timeout: 120_000 });
  if (res.error) throw new Error(`queueing solver: cannot run ${pythonBin()} (${res.error.message}); scripts/setup.sh installs line-solver`);
  if (res.status !== 0) throw new Error(`queueing solver failed (exit ${res.status}): ${res.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return JSON.parse(res.stdout) as SolverOutput;
}
