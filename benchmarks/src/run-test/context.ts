// What one test (`bench run`) is asked for (RunOptions) and carries from stage to stage (TestContext),
// and the two small records every stage reads or writes: meta.json and the launcher's flags.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashEvent } from '../crash-watch';
import type { PowerModel } from '../energy';
import type { SpsOverrides, SpsSample } from '../k6-run';
import type { SpsK6Options } from '../k6-options';
import type { ProtocolOverrides } from '../provenance/manifest';
import { resultStamp } from '../paths';
import type { Profile } from '../profiles';
import { ResourceSampler, type ProcessGroup } from '../resource-sampler';
import type { UpOptions } from '@shellgrade/launcher';
import type { VariantStatus } from '../stack';
import type { PaperMetrics, RunRecord, TestMeta } from '../types';
import type { CpusetFlavour } from '../placement/detect';
import type { PlacementPlan, PlacementRequest } from '../placement/plan';
import { PlacementSession } from '../placement/session';
import type { CpuQuotaFlavour } from '../placement/cpu-quota';
import { QuotaSession } from '../placement/quota-session';
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

/** Everything one test carries from step to step. */
export interface TestContext {
  opts: RunOptions;
  profile: Profile;
  runs: number;
  betweenS: number;
  dir: string;
  meta: TestMeta;
  specName: string;
  reply: SpsK6Options['reply'];
  /** inline, http, rabbitmq, bullmq: the audit counts broker acks for rabbitmq. */
  dispatch: string;
  /** The spec's auth.kdfCost: the students are seeded with it (a login costs what the spec says). */
  kdfCost: number;
  upTarget: string;
  wasUp: boolean;
  k6: string;
  status: VariantStatus;
  entry: string;
  usersCsv: string;
  /** What every measured run's k6 options file sets beyond the profile. */
  k6Overrides: SpsOverrides;
  groups: ProcessGroup[];
  sampler: ResourceSampler | null;
  records: RunRecord[];
  /** What placement was asked and possible, and the live groups when it is on. */
  placementPlan: PlacementPlan;
  cpuset: CpusetFlavour | null;
  placement: PlacementSession | null;
  /** The cpu controller the scale model's quotas are written in (testbed scaled), and the live quotas. */
  cpuQuota: CpuQuotaFlavour | null;
  quota: QuotaSession | null;
  /** The processes this test's warm-up warmed (or found warm); a measured run on them keeps them marked warm. */
  warmIdentity: string[] | null;
  /** The current run's wait for an idle system (null: it did not wait). */
  quiet?: QuietWait | null;
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
}

export function writeMeta(ctx: TestContext): void {
  writeFileSync(join(ctx.dir, 'meta.json'), JSON.stringify(ctx.meta, null, 2));
}

/** Launcher options of this test: CPU profiles into the run folder. */
export function upFlags(ctx: TestContext): UpOptions {
  const scaled = ctx.placementPlan.testbed?.testbed === 'scaled' ? { cpuGroupRoot: ctx.placementPlan.testbed.root } : {};
  return { ...(ctx.opts.cpuProfile ? { cpuProfileDir: join(ctx.dir, 'profiles') } : {}), ...scaled };
}
