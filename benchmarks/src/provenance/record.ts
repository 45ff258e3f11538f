// The runner's provenance step: manifest.json in the run folder from what prepareTest resolved
// (spec.yaml as run, the profile with its overrides, machine facts) and the environment facts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { MachineFacts } from '../machine';
import type { Profile } from '../profiles';
import type { PlacementPlan } from '../placement/plan';
import { environmentFacts } from './facts';
import { buildManifest, writeManifest, type Manifest, type ProtocolOverrides } from './manifest';

const OVERRIDE_KEYS: (keyof ProtocolOverrides)[] = ['runs', 'pauseS', 'peak', 'saturation', 'rampS', 'holdS', 'connectionReuse', 'arrivals', 'tracing', 'kdfCost', 'apdexTMs', 'raw'];

/** The protocol-changing options of a run (the runner's RunOptions is a superset). */
export function protocolOverrides(opts: ProtocolOverrides): ProtocolOverrides {
  return Object.fromEntries(OVERRIDE_KEYS.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])) as ProtocolOverrides;
}

export async function writeRunManifest(i: {
  dir: string;
  runId: string;
  startedAt: string;
  variant: string;
  profileName: string;
  overrides: ProtocolOverrides;
  profile: Profile;
  machine: MachineFacts;
  placement?: PlacementPlan;
}): Promise<Manifest> {
  const manifest = buildManifest({
    ...i,
    overrides: protocolOverrides(i.overrides),
    spec: parse(readFileSync(join(i.dir, 'spec.yaml'), 'utf8')) as Record<string, unknown>,
    hasSource: existsSync(join(i.dir, 'spec.source.yaml')),
    env: await environmentFacts(),
  });
  writeManifest(i.dir, manifest);
  return manifest;
}
