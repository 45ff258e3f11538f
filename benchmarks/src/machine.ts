import { cpus, release, totalmem, type as osType } from 'node:os';
import { raplDomains } from './energy';

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memBytes: number;
  kernel: string;
  os: string;
  node: string;
  k6: string;
  energy: 'rapl' | 'absent';
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
  };
}
