import { readFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { raplDomains } from './energy';
import { measureMachineSpeed, type MachineSpeed } from './machine-speed';

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memBytes: number;
  kernel: string;
  os: string;
  node: string;
  k6: string;
  energy: 'rapl' | 'absent';
  /**
   * kernel.sched_autogroup_enabled: when on, CPU is shared between sessions (each service
   * replica, each sandboxed grader), not threads — it changes who wins an overloaded machine.
   */
  schedAutogroup?: 'on' | 'off' | 'absent';
  /** This host's speed (machine-speed.ts): results from hosts whose probes differ are compared in ratios only. */
  speed?: MachineSpeed;
}

export function schedAutogroup(path = '/proc/sys/kernel/sched_autogroup_enabled'): 'on' | 'off' | 'absent' {
  try {
    return readFileSync(path, 'utf8').trim() === '1' ? 'on' : 'off';
  } catch {
    return 'absent';
  }
}

export function machineFacts(k6Version: string): MachineFacts {
  const list = cpus();
  return {
    cpuModel: list[0]?.model ?? 'unknown',
    cores: list.length,
    memBytes: totalmem(),
    kernel: release(),
    os: osType(),
    node: process.version,
    k6: k6Version,
    energy: raplDomains().length > 0 ? 'rapl' : 'absent',
    schedAutogroup: schedAutogroup(),
    speed: measureMachineSpeed(),
  };
}
