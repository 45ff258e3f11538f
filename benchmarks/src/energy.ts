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
