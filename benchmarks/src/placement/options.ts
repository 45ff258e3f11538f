// The placement options of `bench run|matrix` and `findings` (commander), and the request they make.
import { InvalidArgumentError } from 'commander';
import { parseCpuList } from './cpu-list';
import type { PlacementRequest } from './plan';
import type { Testbed, TestbedRequest } from './testbed';

function cpuList(v: string): string {
  try {
    if (parseCpuList(v).length === 0) throw new Error('empty');
  } catch {
    throw new InvalidArgumentError(`"${v}" is not a CPU list (e.g. 1, 0-1, 0,2)`);
  }
  return v;
}

function onOff(v: string): 'on' | 'off' {
  if (v !== 'on' && v !== 'off') throw new InvalidArgumentError('must be on or off');
  return v;
}

export const PLACEMENT_OPTIONS = {
  placement: ['--placement <on|off>', 'k6 and the harness on cpusets apart from the system under test (default: on for findings, stress and spike suites and the students profile, off otherwise; unavailable, and said so, without a usable cpuset)', onOff],
  clientCpus: ['--client-cpus <list>', 'CPUs of the client (k6 + harness), e.g. 1 (turns placement on; default: the highest CPU)', cpuList],
  sutCpus: ['--sut-cpus <list>', 'CPUs of the system under test (services, native servers, sandboxes), e.g. 0 (turns placement on; default: the others)', cpuList],
} as const;

/** The placement options, with the testbed (--testbed, --scale) riding along: every runner passes the request on. */
export function placementRequest(f: { placement?: 'on' | 'off'; clientCpus?: string; sutCpus?: string; testbed?: Testbed; scale?: number }, planVariants?: string[]): PlacementRequest | undefined {
  const testbed: TestbedRequest | undefined = f.testbed === undefined && f.scale === undefined ? undefined : { testbed: f.testbed ?? 'unscaled', ...(f.scale !== undefined ? { scale: f.scale } : {}), ...(planVariants ? { planVariants } : {}) };
  if (f.placement === undefined && f.clientCpus === undefined && f.sutCpus === undefined && !testbed) return undefined;
  return { mode: f.placement, clientCpus: f.clientCpus, sutCpus: f.sutCpus, ...(testbed ? { testbed } : {}) };
}
