// manifest.json of a run folder: everything needed to say what was measured and to run the same
// protocol again (`bench replay`). Written when the test starts (a test cut short still says what
// it was), completed at its end with the raw files the tables came from.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { MachineFacts } from '../machine';
import type { PlacementPlan } from '../placement/plan';
import type { Profile } from '../profiles';
import type { EnvironmentFacts } from './facts';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_SCHEMA = 'shellgrade.run-manifest/1';

/** The command-line overrides a test ran with, on top of its named profile. */
export interface ProtocolOverrides {
  runs?: number;
  pauseS?: number;
  /** Override the profile's injection (calibration steps, ad-hoc runs); suites: see suites/resolve.ts. */
  peak?: number;
  /** Soak: the saturation rate (it/s) it holds 70 % of (default: the newest calibration of the variant). */
  saturation?: number;
  rampS?: number;
  holdS?: number;
  /** Client fidelity overrides (k6/profiles.json has each profile's choice). */
  connectionReuse?: boolean;
  arrivals?: 'even' | 'exponential';
  tracing?: 'on' | 'off';
  /**
   * auth.kdfCost for the test: a paper-faithful login cost, e.g. 1 (scrypt
   * N = 2, about the original's one salted SHA-512), instead of the secure default. Loopback only:
   * a process bound beyond it refuses a cost below 14. The recorded spec carries it too.
   */
  kdfCost?: number;
  apdexTMs?: number;
  /** The client's request timeout, s (default: the profile's, else 60). */
  timeoutS?: number;
  raw?: boolean;
}

export interface Manifest {
  schema: typeof MANIFEST_SCHEMA;
  runId: string;
  /** When the test started (before bring-up and seeding); meta.json has the measured window. */
  startedAt: string;
  endedAt: string | null;
  project: EnvironmentFacts['project'];
  variant: {
    name: string;
    /** The full resolved spec as run (extends merged, overrides applied); also spec.yaml. */
    spec: Record<string, unknown>;
    specFile: string;
    sourceFile: string | null;
  };
  profile: { name: string; overrides: ProtocolOverrides; effective: Profile };
  versions: EnvironmentFacts['versions'] & { k6: string; node: string };
  machine: Pick<MachineFacts, 'cpuModel' | 'cores' | 'memBytes' | 'kernel' | 'os' | 'schedAutogroup' | 'energy'>;
  /** Randomness the protocol uses and how it was seeded. */
  seeds: { students: number; k6: string };
  /** Files holding the raw samples behind the tables, relative to the run folder. */
  raw: string[];
  /** Client and system under test on cpusets of their own (placement/plan.ts): on, off or unavailable, with why. Absent in older manifests. */
  placement?: PlacementPlan;
  /** The command as a shell user types it, when the bench CLI ran the test (the console launches the same one). */
  command?: string;
}

/** `npm run bench -- <args>` is `node dist/benchmarks/src/cli.js <args>`: what this process was started with, if so. */
const benchCommand = (argv = process.argv): string | undefined =>
  /benchmarks[/\\]src[/\\]cli\.[jt]s$/.test(argv[1] ?? '') ? ['npm', 'run', 'bench', '--', ...argv.slice(2)].join(' ') : undefined;

export interface ManifestInput {
  runId: string;
  startedAt: string;
  variant: string;
  spec: Record<string, unknown>;
  hasSource: boolean;
  profileName: string;
  overrides: ProtocolOverrides;
  profile: Profile;
  machine: MachineFacts;
  env: EnvironmentFacts;
  placement?: PlacementPlan;
}

export const K6_SEEDS = 'unseeded: k6 has no seed option; Math.random drives exponential arrivals and trace ids, so arrival instants differ between replays (their rate does not)';

export function buildManifest(i: ManifestInput): Manifest {
  const m = i.machine;
  return {
    schema: MANIFEST_SCHEMA,
    runId: i.runId,
    startedAt: i.startedAt,
    endedAt: null,
    project: i.env.project,
    variant: { name: i.variant, spec: i.spec, specFile: 'spec.yaml', sourceFile: i.hasSource ? 'spec.source.yaml' : null },
    profile: { name: i.profileName, overrides: dropUndefined(i.overrides), effective: i.profile },
    versions: { ...i.env.versions, k6: m.k6, node: m.node },
    machine: { cpuModel: m.cpuModel, cores: m.cores, memBytes: m.memBytes, kernel: m.kernel, os: m.os, schedAutogroup: m.schedAutogroup, energy: m.energy },
    seeds: { students: i.profile.students, k6: K6_SEEDS },
    raw: [],
    ...(i.placement ? { placement: i.placement } : {}),
    ...(benchCommand() ? { command: benchCommand() } : {}),
  };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Per-run records, k6 options files, summaries and logs, SPS samples with trace ids, resource series. */
const RAW = /^(run-\d+\.json|k6-options-run-\d+\.json|k6-run-\d+\.(json|log)|sps-samples-run-\d+\.jsonl|raw-run-\d+\.json\.gz|suite-run-\d+\.json|resources\.(json|csv))$/;

export function rawFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => RAW.test(f))
    .sort();
}

export function writeManifest(dir: string, m: Manifest): void {
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m, null, 2) + '\n');
}

/** At the end of the test: its end time and the raw files now in the folder. */
export function completeManifest(dir: string, endedAt: string): Manifest | null {
  if (!existsSync(join(dir, MANIFEST_FILE))) return null;
  const m = { ...readManifest(join(dir, MANIFEST_FILE)), endedAt, raw: rawFilesIn(dir) };
  writeManifest(dir, m);
  return m;
}

const manifestSchema = z.looseObject({
  schema: z.literal(MANIFEST_SCHEMA),
  runId: z.string().min(1),
  startedAt: z.string(),
  variant: z.looseObject({ name: z.string(), spec: z.record(z.string(), z.unknown()) }),
  profile: z.looseObject({ name: z.string(), overrides: z.record(z.string(), z.unknown()), effective: z.looseObject({ students: z.number() }) }),
  project: z.looseObject({ commit: z.string().nullable(), dirty: z.boolean().nullable() }),
});

/** A manifest file, or the run folder holding one. */
export function readManifest(path: string): Manifest {
  const file = existsSync(join(path, MANIFEST_FILE)) ? join(path, MANIFEST_FILE) : path;
  if (!existsSync(file)) throw new Error(`no manifest at ${path} (runs recorded before provenance have none)`);
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: not a ${MANIFEST_SCHEMA}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data as unknown as Manifest;
}
