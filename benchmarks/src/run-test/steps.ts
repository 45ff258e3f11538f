// What one test (`bench run`) is asked for (RunOptions) and what each of its steps hands the next:
// plan -> launch -> place -> warm-up -> collect -> load (per run) -> write. Every step's output is
// read-only to the steps after it; runTest composes them (run-test.ts).
import { join } from 'node:path';
import type { CrashEvent } from '../crash-watch';
import type { PowerModel } from '../energy';
import type { SpsOverrides, SpsSample } from '../k6-run';
import type { SpsK6Options } from '../k6-options';
import type { ProtocolOverrides } from '../provenance/manifest';
import { resultStamp } from '../paths';
import type { Profile } from '../profiles';
import type { ResourceSampler, ProcessGroup } from '../resource-sampler';
import type { UpOptions } from '@shellgrade/launcher';
import type { VariantStatus } from '../stack';
import type { PaperMetrics, RunRecord, TestMeta } from '../types';
import type { CpusetFlavour } from '../placement/detect';
import type { PlacementPlan, PlacementRequest } from '../placement/plan';
import type { PlacementSession } from '../placement/session';
import type { CpuQuotaFlavour } from '../placement/cpu-quota';
import type { QuotaSession } from '../placement/quota-session';
import type { QuietWait } from '../quiet';

/** Test hooks: the integration tests break the system under test at a chosen point. */
export interface RunHooks {
  /** Called once k6 is sending load (its pid known). */
  duringLoad?: (run: number, status: VariantStatus) => Promise<void>;
  /** Called after the drain, before the audit reads the database. */
  beforeAudit?: (run: number) => Promise<void>;
}

/** The protocol overrides (provenance/manifest.ts records them) and how the test is run. */
export interface RunOptions extends ProtocolOverrides {
  variant: string;
  profile: string;
  /** V8 CPU profiles of every service over the whole test (variant up --cpu-prof), summarised in profiles.md. */
  cpuProfile?: boolean;
  keepUp?: boolean;
  runId?: string;
  /** Upper bound of the post-run drain (no production left queued or grading), seconds. */
  drainTimeoutS?: number;
  /**
   * End the drain after this many seconds when every production left open is one no client was
   * told was accepted, and stop the variant with that backlog (default: wait it out; findings:
   * DISCARD_UNTOLD_AFTER_S).
   */
  discardUntoldAfterS?: number;
  powerModel?: PowerModel;
  /** k6 web dashboard HTML export per run (default on). */
  dashboard?: boolean;
  /** The client and the system under test on cpusets of their own (placement/; default by the kind of test). */
  placement?: PlacementRequest;
  /** Part of `npm run findings`: placement is on by default, and each run waits for an idle system. */
  findings?: boolean;
  /** Wait for an idle system before each run's load (quiet.ts; default: on in findings). */
  quietWait?: boolean;
  /** auto (default): skip the warm-up when these very processes served scenario R moments before (warm-processes.ts); always: warm up anyway; never: the original's protocol, which has none. */
  warmUp?: 'auto' | 'always' | 'never';
  hooks?: RunHooks;
}

export function makeRunId(variant: string, profile: string, tracing: 'on' | 'off' | undefined, now = new Date(), kdfCost?: number): string {
  const stamp = resultStamp(now);
  return [stamp, variant, profile, tracing === 'on' ? 'tracing' : '', kdfCost !== undefined ? `kdf${kdfCost}` : ''].filter(Boolean).join('-');
}

export function restartsOf(status: VariantStatus): Record<string, number> {
  return Object.fromEntries(status.processes.map((p) => [p.name, p.restarts ?? 0]));
}

export function isUp(status: VariantStatus, variant: string): boolean {
  return status.variant === variant && status.processes.length > 0 && status.processes.every((p) => p.status === 'online');
}

/** Step plan: what the whole test is, decided before anything starts (nothing changes it after). */
export interface TestPlan {
  readonly opts: Readonly<RunOptions>;
  readonly profile: Readonly<Profile>;
  readonly runs: number;
  readonly betweenS: number;
  readonly dir: string;
  /** meta.json as planned: the later steps' facts are laid over it (metaOf), never written into it. */
  readonly meta: Readonly<TestMeta>;
  readonly specName: string;
  readonly reply: SpsK6Options['reply'];
  /** inline, http, rabbitmq, bullmq: the audit counts broker acks for rabbitmq. */
  readonly dispatch: string;
  /** The spec's auth.kdfCost: the students are seeded with it (a login costs what the spec says). */
  readonly kdfCost: number;
  readonly upTarget: string;
  readonly k6: string;
  readonly usersCsv: string;
  /** What every measured run's k6 options file sets beyond the profile. */
  readonly k6Overrides: Readonly<SpsOverrides>;
  /** What placement was asked and possible (and the testbed planned). */
  readonly placementPlan: Readonly<PlacementPlan>;
  readonly cpuset: CpusetFlavour | null;
  /** The cpu controller the scale model's quotas are written in (testbed scaled). */
  readonly cpuQuota: CpuQuotaFlavour | null;
}

/** Step launch: the variant as the test found or started it. */
export interface Launched {
  /** It was up already: it is left up at the end. */
  readonly wasUp: boolean;
  readonly status: VariantStatus;
  readonly entry: string;
}

/** Step place: the live cpusets and quota groups (null: not on), each session owning its own record. */
export interface Placed {
  readonly placement: PlacementSession | null;
  readonly quota: QuotaSession | null;
}

export const NOT_PLACED: Placed = Object.freeze({ placement: null, quota: null });

/** Step warm-up: students seeded, the processes warm, and which processes they are. */
export interface WarmedUp {
  readonly status: VariantStatus;
  readonly warmUp: NonNullable<TestMeta['warmUp']>;
  /** The processes warmed (or found warm); a measured run on them keeps them marked warm. */
  readonly warmIdentity: string[] | null;
}

/** Step collect: the resource sampler over the measured window, told which processes to follow. */
export interface Sampling {
  readonly sampler: ResourceSampler;
  /** The measured window's start (traces/ reads it from meta.json). */
  readonly startedAt: string;
  /** The groups sampled from now on (k6 while it runs, a restarted process). */
  readonly follow: (groups: ProcessGroup[]) => void;
}

/** What a measured run reads: every earlier step's output, none of them changed by it. */
export interface RunInput {
  readonly plan: TestPlan;
  readonly launched: Launched;
  readonly placed: Placed;
  readonly warm: WarmedUp;
  readonly sampling: Sampling;
}

/** A measured run's result: its record, and the variant as the run left it. */
export interface RunOutcome {
  readonly record: RunRecord;
  readonly status: VariantStatus;
}

/** What driving one run's load produced, before it is audited and judged. */
export interface LoadResult {
  startedAt: string;
  code: number;
  paper: PaperMetrics;
  samples: SpsSample[];
  loadFromMs: number;
  crashes: CrashEvent[];
  restartsBefore: Record<string, number>;
  variantBefore: string | null | undefined;
  energyStartUj: number | null;
  energyEndUj: number | null;
  dashboard: string | null;
  loadBefore: number;
  /** RabbitMQ work-queue acks before the run (null: not a RabbitMQ variant, or no management API). */
  acksBefore: number | null;
  /** The variant as the load left it (a process restarted during it is followed). */
  status: VariantStatus;
  /** The run's wait for an idle system (null: it did not wait). */
  quiet: QuietWait | null;
}

/** Launcher options of this test: CPU profiles into the run folder, the scale model's group root. */
export function upFlags(plan: TestPlan): UpOptions {
  const scaled = plan.placementPlan.testbed?.testbed === 'scaled' ? { cpuGroupRoot: plan.placementPlan.testbed.root } : {};
  return { ...(plan.opts.cpuProfile ? { cpuProfileDir: join(plan.dir, 'profiles') } : {}), ...scaled };
}
