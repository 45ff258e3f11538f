// Energy from Intel RAPL (powercap) when the machine exposes it; the paper used a physical
// power meter, which we do not have. Absent on this VM: reported as "absent", never guessed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const POWERCAP = '/sys/class/powercap';

/** Package-level RAPL energy counters (µJ) readable here; [] when absent. */
export function raplDomains(root = POWERCAP): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((d) => /^intel-rapl:\d+$/.test(d))
    .map((d) => join(root, d, 'energy_uj'))
    .filter((f) => {
      try {
        readFileSync(f, 'utf8');
        return true;
      } catch {
        return false;
      }
    });
}

export function readEnergyUj(domains: string[]): number | null {
  if (domains.length === 0) return null;
  return domains.reduce((sum, f) => sum + Number(readFileSync(f, 'utf8').trim()), 0);
}

/** Wh between two readings (wrap-around of the counter is ignored: runs are short). */
export function energyWh(startUj: number | null, endUj: number | null): number | null {
  if (startUj === null || endUj === null || endUj < startUj) return null;
  return (endUj - startUj) / 3.6e9;
}

/**
 * Linear CPU-utilisation power model (an ESTIMATE, not a measurement: the paper used a power
 * meter). Per logical CPU: P = idleW + (maxW − idleW) × u, u = busy share of that CPU. Over a
 * run: mean W = cores × idleW + (maxW − idleW) × cpuS / durationS, where cpuS = machine CPU
 * seconds minus k6's (the paper's meter measured the server, its load generator ran elsewhere).
 * Defaults: Cloud Carbon Footprint's average coefficients for a cloud vCPU (0.74 W idle, 3.5 W
 * at 100 %); set them for your hardware (`--power-idle-w`, `--power-max-w`).
 */
export interface PowerModel {
  idleWPerCpu: number;
  maxWPerCpu: number;
  source: string;
}

export const DEFAULT_POWER_MODEL: PowerModel = {
  idleWPerCpu: 0.74,
  maxWPerCpu: 3.5,
  source: 'Cloud Carbon Footprint average vCPU coefficients (min 0.74 W, max 3.5 W)',
};

export interface EnergyEstimate {
  /** Mean power over the run, W (the paper's "w/h" column). */
  meanW: number;
  wh: number;
}

export function estimateEnergy(cpuS: number, durationS: number, cores: number, model: PowerModel = DEFAULT_POWER_MODEL): EnergyEstimate | null {
  if (!(durationS > 0) || !(cores > 0)) return null;
  const meanW = cores * model.idleWPerCpu + ((model.maxWPerCpu - model.idleWPerCpu) * Math.max(0, cpuS)) / durationS;
  return { meanW, wh: (meanW * durationS) / 3600 };
}
