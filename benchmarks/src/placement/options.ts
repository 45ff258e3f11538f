// The request the placement options (--placement, --client-cpus, --sut-cpus, --testbed, --scale; added by addPlacementOptions in ../options.ts) make.
import type { PlacementRequest } from './plan';
import type { Testbed, TestbedRequest } from './testbed';

/** What commander hands an action for the options addPlacementOptions adds (../options.ts). */
export interface PlacementFlags {
  placement?: 'on' | 'off';
  clientCpus?: string;
  sutCpus?: string;
  testbed?: Testbed;
  scale?: number;
}

/** The placement options, with the testbed (--testbed, --scale) riding along: every runner passes the request on. */
export function placementRequest(f: PlacementFlags, planVariants?: string[]): PlacementRequest | undefined {
  const testbed: TestbedRequest | undefined = f.testbed === undefined && f.scale === undefined ? undefined : { testbed: f.testbed ?? 'unscaled', ...(f.scale !== undefined ? { scale: f.scale } : {}), ...(planVariants ? { planVariants } : {}) };
  if (f.placement === undefined && f.clientCpus === undefined && f.sutCpus === undefined && !testbed) return undefined;
  return { mode: f.placement, clientCpus: f.clientCpus, sutCpus: f.sutCpus, ...(testbed ? { testbed } : {}) };
}
