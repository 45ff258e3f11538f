// What the kernel will actually let a process run on: Cpus_allowed_list of /proc/<pid>/status.
// The placement is checked against this, not against what we wrote into the cgroups.
import { readFileSync } from 'node:fs';
import { parseCpusAllowed } from './cpu-list';

export function allowedCpus(pid: number): number[] | null {
  try {
    return parseCpusAllowed(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

export interface Trespass {
  pid: number;
  cpus: number[];
}

/** The processes among `pids` that may run on a CPU of `forbidden` (gone ones are skipped). */
export function trespassers(pids: number[], forbidden: number[], read: (pid: number) => number[] | null = allowedCpus): Trespass[] {
  const out: Trespass[] = [];
  for (const pid of pids) {
    const cpus = read(pid);
    if (cpus && cpus.some((c) => forbidden.includes(c))) out.push({ pid, cpus });
  }
  return out;
}
