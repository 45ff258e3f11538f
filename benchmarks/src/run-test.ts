// `bench run`: one *test* of the paper's protocol (§IV-B) on one variant — bring it up, seed,
// warm up, then R runs of benchmarks/sps.js with pauses, each drained, audited and judged,
// productions deleted after each run, resources sampled throughout — and the results folder
// results/<run-id>/. runTest reads as the sequence of its steps; each step is a function below.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { loadVariant, variantsDir } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { drain, judgeAudit, productionRows, settledRabbitAcks, type Audit } from './audit';
import { copyBaselineInto } from './baseline';
import { CrashWatch, type CrashEvent } from './crash-watch';
import { DEFAULT_POWER_MODEL, energyWh, estimateEnergy, raplDomains, readEnergyUj, type PowerModel } from './energy';
import { clientResourceErrors, extractSpsSamples, k6Invocation, loadStartMs, readPaper, readRequestLines, readSchedule, runK6, type SpsOverrides, type SpsSample } from './k6-run';
import type { SpsK6Options } from './k6-options';
import { k6Path, k6Version } from './k6-tool';
import { phase } from './log';
import { completeManifest, type ProtocolOverrides } from './provenance/manifest';
import { writeRunManifest } from './provenance/record';
import { machineFacts } from './machine';
import { resultStamp, resultsDir, runDir } from './paths';
import { loadProfile, type Profile } from './profiles';
import { ResourceSampler, type ProcessGroup } from './resource-sampler';
import { K6_GROUP, summarizeResources } from './resource-summary';
import { writeResources } from './resources-file';
import { sleep } from './shell';
import { analyseSuiteRun, type SuiteRun } from './suites/analyse';
import { suiteLine } from './suites/describe';
import { calibratedSaturation, resolveSuite } from './suites/resolve';
import { runCacheStats, scrapeCaches } from './sweep/cache-stats';
import { profilesMarkdown, readProfileDir } from './profiling/cpu-profile';
import type { UpOptions } from '@shellgrade/launcher';
import { entryUrl, processGroupsOf, resetProductions, seedStudents, variantDown, variantRunning, variantStatus, variantUp, type VariantStatus } from './stack';
import { processIdentity, readWarmRecord, recordWarm, warmedBy } from './warm-processes';
import { aggregateTest } from './test-aggregate';
import type { Aggregated, PaperMetrics, RunRecord, TestMeta } from './types';
import { DEFAULT_VALIDITY, judgeRun } from './validity';
import { formatCpuList } from './placement/cpu-list';
import { detectCpuset, type CpusetFlavour } from './placement/detect';
import { planPlacement, placementText, type PlacementPlan, type PlacementRequest } from './placement/plan';
import { PlacementSession } from './placement/session';
import { detectCpuQuota, type CpuQuotaFlavour } from './placement/cpu-quota';
import { QuotaSession, throttlingText } from './placement/quota-session';
import { planTestbed, testbedText } from './placement/testbed';
import { DEFAULT_QUIET, waitForQuiet, type QuietWait } from './quiet';
import { exclusive } from './harness-lock';

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

function restartsOf(status: VariantStatus): Record<string, number> {
  return Object.fromEntries(status.processes.map((p) => [p.name, p.restarts ?? 0]));
}

function isUp(status: VariantStatus, variant: string): boolean {
  return status.variant === variant && status.processes.length > 0 && status.processes.every((p) => p.status === 'online');
}

/** Everything one test carries from step to step. */
interface TestContext {
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
interface LoadResult {
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

export function runTest(opts: RunOptions): Promise<Aggregated> {
  return exclusive(`bench run ${opts.variant} (${opts.profile})`, () => runTestNow(opts));
}

async function runTestNow(opts: RunOptions): Promise<Aggregated> {
  const ctx = await prepareTest(opts);
  await recordProvenance(ctx);
  await bringUp(ctx);
  try {
    await placeProcesses(ctx);
    await seedAndWarmUp(ctx);
    startSampling(ctx);
    try {
      for (let r = 1; r <= ctx.runs; r++) {
        ctx.records.push(await measuredRun(ctx, r));
        await betweenRuns(ctx, r);
      }
    } finally {
      await stopSampling(ctx);
      await tearDown(ctx);
    }
  } finally {
    undoPlacement(ctx);
  }
  return writeAggregate(ctx);
}

/** Step 1: profile with overrides, results folder, the spec as run, machine facts, baseline copy. */
async function prepareTest(opts: RunOptions): Promise<TestContext> {
  if (loadProfile(opts.profile).sweep) throw new Error(`profile ${opts.profile} is a closed-model sweep (paper 001): npm run bench -- sweep --variant ${opts.variant} --profile ${opts.profile}`);
  const named = suiteProfile(loadProfile(opts.profile), opts);
  // A suite's injection comes from its resolved steps; otherwise --peak/--ramp-s/--hold-s override it.
  const injection = named.suite ? {} : { peak: opts.peak ?? named.peak, rampS: opts.rampS ?? named.rampS, holdS: opts.holdS ?? named.holdS };
  const profile: Profile = {
    ...named,
    ...injection,
    connectionReuse: opts.connectionReuse ?? named.connectionReuse,
    arrivals: opts.arrivals ?? named.arrivals,
    ...(opts.timeoutS !== undefined ? { timeoutS: opts.timeoutS } : {}),
  };
  const runs = opts.runs ?? profile.runs;
  const betweenS = opts.pauseS ?? profile.betweenRunsS;
  const runId = opts.runId ?? makeRunId(opts.variant, opts.profile, opts.tracing, undefined, opts.kdfCost);
  const dir = runDir(runId);
  mkdirSync(dir, { recursive: true });
  phase(`run ${runId}: variant ${opts.variant}, profile ${opts.profile} (peak ${profile.peak}/s, ${profile.rampS}s + ${profile.holdS}s, ${profile.arrivals} arrivals, connection reuse ${profile.connectionReuse ? 'on' : 'off'}), ${runs} run(s), ${betweenS}s apart -> ${dir}`);

  // The spec as run: resolved (extends merged), with the tracing override if any.
  const spec = loadVariant(opts.variant);
  if (opts.tracing) spec.tracing = { ...spec.tracing, enabled: opts.tracing === 'on' };
  if (opts.kdfCost !== undefined) spec.auth = { ...spec.auth, kdfCost: opts.kdfCost };
  writeFileSync(join(dir, 'spec.yaml'), stringify(spec));
  const preset = join(variantsDir(), `${opts.variant}.yaml`);
  if (existsSync(preset)) copyFileSync(preset, join(dir, 'spec.source.yaml'));

  const k6 = await k6Path();
  const machine = machineFacts(await k6Version(k6));
  writeFileSync(join(dir, 'machine.json'), JSON.stringify(machine, null, 2));
  const baseline = copyBaselineInto(dir);
  const detection = detectCpuset();
  const placementPlan = planPlacement(opts.placement ?? {}, { profileName: opts.profile, suiteKind: profile.suite?.kind, findings: opts.findings }, detection);
  phase(`placement ${placementText(placementPlan)}`);
  // The scale model's s fits the CPUs the system under test has: its cpuset's, or the machine's.
  const quotaDetection = detectCpuQuota();
  placementPlan.testbed = planTestbed(opts.placement?.testbed, opts.variant, placementPlan.state === 'on' ? placementPlan.sutCpus.length : availableParallelism(), quotaDetection, placementPlan.state === 'on' ? placementPlan.cgroup : undefined);
  phase(`testbed ${testbedText(placementPlan.testbed)}`);
  phase(baseline ? `grader-only baseline (sandboxed) copied into the run: ${baseline.best.gradingsPerS} gradings/s (${baseline.best.label})` : 'no sandboxed grader-only baseline (results/grader-baseline/latest.json)');

  const meta: TestMeta = {
    runId,
    // A spec given as a file (bench replay) is named by its name field, not by its path.
    variant: spec.name,
    profileName: opts.profile,
    profile: { ...profile, runs, betweenRunsS: betweenS },
    topology: spec.topology,
    transport: spec.transport,
    replicas: spec.replicas as Record<string, number>,
    tracing: spec.tracing.enabled,
    kdfCost: spec.auth.kdfCost,
    entry: '',
    startedAt: new Date().toISOString(),
    machine,
    apdexTMs: opts.apdexTMs ?? 1500,
    baseline,
    powerModel: opts.powerModel ?? DEFAULT_POWER_MODEL,
    placement: placementPlan,
  };
  // An override of the preset runs the spec as written into the run folder.
  const upTarget = opts.tracing || opts.kdfCost !== undefined ? join(dir, 'spec.yaml') : opts.variant;
  const k6Overrides: SpsOverrides = {
    peak: profile.peak,
    rampS: profile.rampS,
    holdS: profile.holdS,
    // A sync variant's 202 (reply timed out, graded later) is not the feedback the student waited for.
    reply: spec.reply,
    connectionReuse: profile.connectionReuse,
    arrivals: profile.arrivals,
  };
  if (opts.apdexTMs) k6Overrides.apdexTMs = opts.apdexTMs;
  if (profile.timeoutS !== undefined) k6Overrides.timeoutS = profile.timeoutS;
  if (profile.suite) {
    // The steps as resolved (a soak's rate, --peak scaling) and one log line per request.
    Object.assign(k6Overrides, { steps: profile.suite.steps, transitionS: profile.suite.transitionS, logRequests: true });
    phase(`suite ${profile.suite.kind}: steps ${profile.suite.steps!.map((st) => `${st.rate}/s × ${st.holdS}s`).join(', ')} (${profile.suite.transitionS}s between steps)`);
  }
  return {
    opts,
    profile,
    runs,
    betweenS,
    dir,
    meta,
    specName: spec.name,
    reply: spec.reply,
    dispatch: spec.dispatch,
    kdfCost: spec.auth.kdfCost,
    upTarget,
    wasUp: false,
    k6,
    status: { variant: null, processes: [], servers: [] },
    entry: '',
    usersCsv: join(dir, 'users.csv'),
    k6Overrides,
    groups: [],
    sampler: null,
    records: [],
    placementPlan,
    cpuset: detection.available ? detection.flavour : null,
    placement: null,
    cpuQuota: quotaDetection.available ? quotaDetection.flavour : null,
    quota: null,
    warmIdentity: null,
  };
}

/** A suite profile made concrete: a soak's rate from --peak, --saturation or the variant's newest calibration. */
function suiteProfile(named: Profile, opts: RunOptions): Profile {
  if (!named.suite) return named;
  if (named.suite.kind !== 'soak' && (opts.rampS !== undefined || opts.holdS !== undefined)) throw new Error(`--ramp-s/--hold-s do not apply to a ${named.suite.kind} suite (its steps are in k6/profiles.json)`);
  const calibrated = named.suite.kind === 'soak' && opts.peak === undefined && opts.saturation === undefined ? calibratedSaturation(resultsDir(), opts.variant) : null;
  if (calibrated) phase(`soak: saturation ${calibrated.rate}/s from ${calibrated.file}`);
  return resolveSuite(named, { variant: opts.variant, peak: opts.peak, saturation: opts.saturation, holdS: opts.holdS }, calibrated);
}

/** Step 1b: manifest.json — commit, resolved spec, protocol, versions, machine, seeds (provenance/manifest.ts). */
async function recordProvenance(ctx: TestContext): Promise<void> {
  const m = ctx.meta;
  await writeRunManifest({ dir: ctx.dir, runId: m.runId, startedAt: new Date().toISOString(), variant: m.variant, profileName: m.profileName, overrides: ctx.opts, profile: m.profile, machine: m.machine, placement: ctx.placementPlan });
}

/**
 * Without overrides, the variant up under the run's name is used as it is, however its caller
 * set it up (the faults runner routes a hop through its fault proxy and traces it first). With
 * --kdf-cost or --tracing it must be running the run's own spec: a preset started by hand at its
 * own hash cost is not the run's --kdf-cost 1. A CPU-profiled run always starts its own processes
 * (they write their profiles at exit).
 */
async function upAsWanted(ctx: TestContext): Promise<boolean> {
  if (ctx.opts.cpuProfile) return false;
  if (ctx.upTarget !== ctx.opts.variant) return variantRunning(ctx.upTarget).catch(() => false);
  const before = await variantStatus().catch(() => null);
  return before !== null && isUp(before, ctx.opts.variant);
}

/** Step 2: the variant up (left as found at the end), its entry URL. */
async function bringUp(ctx: TestContext): Promise<void> {
  ctx.wasUp = await upAsWanted(ctx);
  phase(ctx.wasUp ? `variant ${ctx.opts.variant} already up` : `bringing up ${ctx.opts.variant}${ctx.opts.cpuProfile ? ' with CPU profiling' : ''}`);
  if (!ctx.wasUp) await variantUp(ctx.upTarget, upFlags(ctx));
  ctx.status = await variantStatus();
  ctx.entry = entryUrl(ctx.status);
  ctx.meta.entry = ctx.entry;
  writeMeta(ctx);
  phase(`entry ${ctx.entry}; processes: ${ctx.status.processes.map((p) => `${p.name}(${p.pid ?? '-'})`).join(' ')}; servers: ${ctx.status.servers.map((s) => s.name).join(' ')}`);
}

/**
 * The launcher is shared and a crashed process may still be down: re-assert the variant before
 * each phase (a no-op when it is up). Between runs only — never a reason to repeat a run.
 */
async function ensureUp(ctx: TestContext): Promise<void> {
  const now = await variantStatus();
  if (isUp(now, ctx.specName)) {
    ctx.status = now;
    return;
  }
  phase(`variant is now ${now.variant ?? 'none'}${now.variant === ctx.specName ? ' (a process is down)' : ''}: bringing ${ctx.opts.variant} back up`);
  await variantUp(ctx.upTarget, upFlags(ctx));
  ctx.status = await variantStatus();
  await placeSut(ctx);
}

/** The pids the system under test is rooted at: every process of the variant and every native server. */
function sutRoots(status: VariantStatus): number[] {
  return processGroupsOf(status).map((g) => g.pid);
}

/**
 * Step 2b (placement on): the system under test — variant processes, native servers, their
 * descendants and pm2's daemon — into its cpuset, the harness into the client's (k6 and every
 * other child it starts from now on is born there). Checked against the kernel's Cpus_allowed_list.
 */
async function placeProcesses(ctx: TestContext): Promise<void> {
  await applyQuotas(ctx);
  if (ctx.placementPlan.state !== 'on') return;
  ctx.placement = new PlacementSession(ctx.placementPlan, ctx.cpuset!);
  await placeSut(ctx);
  ctx.placement.placeClient();
  const wrong = [...(await ctx.placement.trespassers(sutRoots(ctx.status))), ...ctx.placement.clientTrespassers([process.pid])];
  if (wrong.length) throw new Error(`placement did not hold: ${wrong.map((t) => `pid ${t.pid} allowed on CPU ${formatCpuList(t.cpus)}`).join(', ')}`);
  ctx.meta.placement = ctx.placement.record;
  writeMeta(ctx);
  const r = ctx.placement.record;
  phase(`placed: ${r.sutProcesses} processes of the system under test on CPU ${formatCpuList(r.sutCpus)}, the harness (and k6 to come) on CPU ${formatCpuList(r.clientCpus)} (${ctx.placement.dir})`);
}

/** (Re-)places the system under test: idempotent, after a re-up or a restart. */
async function placeSut(ctx: TestContext): Promise<void> {
  if (ctx.quota) await applyQuotas(ctx);
  if (ctx.placement) await ctx.placement.placeSut(sutRoots(ctx.status));
}

/**
 * Step 2a (testbed scaled): each container of the system under test — variant process with its
 * descendants, native server with its children — into its quota group (placement/quota-session.ts).
 * Idempotent: again after a re-up. The processes were started told their group (upFlags), so the
 * groups of their gradings nest under it.
 */
async function applyQuotas(ctx: TestContext): Promise<void> {
  const plan = ctx.placementPlan.testbed;
  if (plan?.testbed !== 'scaled') return;
  ctx.quota ??= new QuotaSession(plan, ctx.cpuQuota!);
  const moved = await ctx.quota.apply(processGroupsOf(ctx.status).map((g) => ({ name: g.name, pid: g.pid })));
  ctx.placementPlan.testbed = ctx.quota.record;
  if (ctx.meta.placement) ctx.meta.placement.testbed = ctx.quota.record;
  writeMeta(ctx);
  phase(`scale model: ${moved} processes moved into their quota groups under ${ctx.quota.groups.root}`);
}

function undoPlacement(ctx: TestContext): void {
  ctx.quota?.undo();
  if (!ctx.placement) return;
  ctx.placement.undo();
  ctx.meta.placement = ctx.placement.record;
  writeMeta(ctx);
}

/**
 * Step 3: students seeded; a few SPS not measured (a second try if the variant was switched)
 * unless these very processes served scenario R moments before; productions deleted.
 */
async function seedAndWarmUp(ctx: TestContext): Promise<void> {
  phase(`seeding ${ctx.profile.students} students -> ${ctx.usersCsv}`);
  await seedStudents(ctx.profile.students, ctx.usersCsv, ctx.kdfCost);
  await ensureUp(ctx);
  const warm = ctx.opts.warmUp === 'always' ? null : warmedBy(ctx.status, readWarmRecord());
  if (ctx.opts.warmUp === 'never') {
    phase('no warm-up (--warm-up never): the load meets the processes as they are');
    ctx.meta.warmUp = { skipped: true, warmedBy: 'none (--warm-up never)', agoS: 0 };
  } else if (warm) {
    const agoS = Math.round((Date.now() - warm.atMs) / 1000);
    phase(`warm-up skipped: these processes served scenario R ${agoS} s ago (${warm.runId}); --warm-up always warms up anyway`);
    ctx.meta.warmUp = { skipped: true, warmedBy: warm.runId, agoS };
  } else {
    await warmUp(ctx);
    ctx.meta.warmUp = { skipped: false };
  }
  writeMeta(ctx);
  ctx.warmIdentity = processIdentity(ctx.status);
  recordWarm(ctx.status, ctx.meta.runId);
  await resetProductions();
}

async function warmUp(ctx: TestContext): Promise<void> {
  let warm: PaperMetrics | null = null;
  for (let attempt = 1; attempt <= 2 && (warm === null || warm.sps.OK === 0); attempt++) {
    if (attempt > 1) await ensureUp(ctx);
    phase(`warm-up (a few SPS, not measured)${attempt > 1 ? ', second try' : ''}`);
    const inv = k6Invocation({
      k6: ctx.k6,
      dir: ctx.dir,
      tag: 'warmup',
      entry: ctx.entry,
      usersCsv: ctx.usersCsv,
      profile: 'smoke',
      overrides: { peak: 1, rampS: 1, holdS: 2, pauseS: 0.1, thresholds: false, logSps: false, reply: ctx.reply },
    });
    await runK6(inv, () => undefined);
    warm = readPaper(inv.options.summaryJson);
  }
  if (!warm || warm.sps.OK === 0) {
    throw new Error(`warm-up failed: no SPS succeeded at ${ctx.entry} (OK ${warm?.OK}, KO ${warm?.KO}); see ${join(ctx.dir, 'k6-warmup.txt')}`);
  }
}

/** Step 4: the measured window starts (traces/ reads it from meta.json); resources sampled from now on. */
function startSampling(ctx: TestContext): void {
  ctx.meta.startedAt = new Date().toISOString();
  ctx.groups = processGroupsOf(ctx.status);
  // cgroup v2: a process is in one cgroup only; the sampler's per-group cgroups would take the
  // system out of its cpuset, so its CPU comes from /proc then (v1: separate hierarchies).
  ctx.sampler = new ResourceSampler(() => ctx.groups, !(ctx.placement && ctx.placementPlan.cgroup === 2) && ctx.quota?.groups.flavour.version !== 2);
  ctx.meta.cpuAccounting = ctx.sampler.cpuAccounting;
  writeMeta(ctx);
  ctx.sampler.start();
}

/** Step 5 (per run): load, drain and audit, judgement, record. */
async function measuredRun(ctx: TestContext, r: number): Promise<RunRecord> {
  await ensureUp(ctx);
  ctx.quiet = await quietBeforeLoad(ctx, r);
  // A process pm2 restarted since is born outside its quota group: every run starts with all of them in.
  if (ctx.quota) await applyQuotas(ctx);
  ctx.quota?.runStarted();
  const load = await driveLoad(ctx, r);
  if (ctx.quota) {
    phase(`run ${r} throttling: ${throttlingText(ctx.quota.runEnded(r))}`);
    writeMeta(ctx);
  }
  const audit = await auditRun(ctx, r, load);
  const record = await judgeAndRecord(ctx, r, load, audit);
  phase(runLine(r, ctx.runs, record));
  // Still the processes warmed before: they stay marked warm (a restarted one is not, nor one stopped with its backlog).
  if (audit.discarded) await discardBacklog(ctx, r, audit.discarded);
  else if (ctx.warmIdentity && processIdentity(ctx.status)?.join(' ') === ctx.warmIdentity.join(' ')) recordWarm(ctx.status, ctx.meta.runId);
  if (ctx.profile.suite) await writeSuiteRun(ctx, r, load);
  return record;
}

/** Step 5a: an idle system before the load (quiet.ts): the system's CPUs under placement, else the machine's. */
async function quietBeforeLoad(ctx: TestContext, r: number): Promise<QuietWait | null> {
  if (!(ctx.opts.quietWait ?? ctx.opts.findings)) return null;
  const cpus = ctx.placementPlan.state === 'on' ? ctx.placementPlan.sutCpus : null;
  phase(`run ${r}: waiting for an idle system (below ${DEFAULT_QUIET.thresholdCores} cores for ${DEFAULT_QUIET.quietS} s, at most ${DEFAULT_QUIET.timeoutS} s)`);
  const q = await waitForQuiet(cpus);
  phase(q.quiet ? `run ${r}: idle after ${q.waitedS.toFixed(0)} s` : `run ${r}: still busy after ${q.waitedS.toFixed(0)} s (${q.lastCores.toFixed(2)} cores): the run will be INVALID`);
  return q;
}

/** k6 against the entry, with crashes watched and the sampler told about k6 and restarted processes. */
async function driveLoad(ctx: TestContext, r: number): Promise<LoadResult> {
  const sampler = ctx.sampler!;
  ctx.groups = processGroupsOf(ctx.status);
  const startedAt = new Date().toISOString();
  const restartsBefore = restartsOf(ctx.status);
  const variantBefore = ctx.status.variant;
  const loadBefore = loadavg()[0];
  const acksBefore = ctx.dispatch === 'rabbitmq' ? await settledRabbitAcks() : null;
  let k6Group: ProcessGroup | null = null;
  const watch = new CrashWatch((e) => {
    phase(`run ${r}: ${e.process} (pid ${e.pid}) exited during the run — recorded, the run counts`);
    // Follow the restarted process so its CPU and memory are sampled too.
    void variantStatus()
      .then((s) => {
        ctx.status = s;
        ctx.groups = [...processGroupsOf(s), ...(k6Group ? [k6Group] : [])];
        watch.follow(s);
        return placeSut(ctx);
      })
      .catch(() => undefined);
  });
  phase(`run ${r}/${ctx.runs}: k6 (profile ${ctx.opts.profile}) against ${ctx.entry}`);
  const inv = k6Invocation({
    k6: ctx.k6,
    dir: ctx.dir,
    tag: `run-${r}`,
    entry: ctx.entry,
    usersCsv: ctx.usersCsv,
    profile: ctx.opts.profile,
    overrides: ctx.k6Overrides,
    raw: Boolean(ctx.opts.raw),
    dashboard: ctx.opts.dashboard !== false,
  });
  const rapl = raplDomains();
  const energyStartUj = readEnergyUj(rapl);
  // What the caches did over the run, per process (paper 001): their /metrics before and after.
  const cachesBefore = await scrapeCaches(ctx.status.processes);
  watch.start(ctx.status);
  const hooks: Promise<void>[] = [];
  const code = await runK6(inv, (pid) => {
    k6Group = { name: K6_GROUP, role: 'load', pid };
    ctx.groups = [...processGroupsOf(ctx.status), k6Group];
    void sampler.mark(r);
    if (ctx.opts.hooks?.duringLoad) hooks.push(ctx.opts.hooks.duringLoad(r, ctx.status));
  });
  await Promise.all(hooks);
  await sampler.mark(r);
  writeFileSync(join(ctx.dir, `cache-run-${r}.json`), JSON.stringify(runCacheStats(cachesBefore, await scrapeCaches(ctx.status.processes)), null, 2));
  const energyEndUj = readEnergyUj(rapl);
  const crashes = watch.stop();
  ctx.groups = processGroupsOf(ctx.status);
  await sampler.mark(0);
  const log = join(ctx.dir, `k6-run-${r}.log`);
  return {
    startedAt,
    code,
    paper: readPaper(inv.options.summaryJson),
    samples: await extractSpsSamples(log, join(ctx.dir, `sps-samples-run-${r}.jsonl`)),
    loadFromMs: await loadStartMs(log),
    crashes,
    restartsBefore,
    variantBefore,
    energyStartUj,
    energyEndUj,
    dashboard: inv.dashboard && existsSync(inv.dashboard) ? inv.dashboard.slice(ctx.dir.length + 1) : null,
    loadBefore,
    acksBefore,
  };
}

/** Bounded drain, then what the client was told vs what the database (and the broker) kept. */
async function auditRun(ctx: TestContext, r: number, load: LoadResult): Promise<Audit> {
  const timeoutS = ctx.opts.drainTimeoutS ?? 120;
  const accepted = load.samples.filter((s) => s.status === 201 || s.status === 202);
  const ids = accepted.map((s) => s.ep_id).filter((id): id is number => typeof id === 'number');
  // Ids when the sample lines carry every accepted SPS; counts otherwise.
  const acceptedIds = ids.length === load.paper.sps.accepted ? ids : null;
  const untoldAfterS = acceptedIds ? (ctx.opts.discardUntoldAfterS ?? null) : null;
  phase(`run ${r}: draining (no production queued or grading; at most ${timeoutS} s${untoldAfterS === null ? '' : `, or ${untoldAfterS} s when no client was told of those left`})`);
  const d = await drain(timeoutS, { told: acceptedIds, untoldAfterS });
  await ctx.opts.hooks?.beforeAudit?.(r);
  const acksAfter = load.acksBefore === null ? null : await settledRabbitAcks();
  return judgeAudit({
    acceptedCount: load.paper.sps.accepted,
    acceptedIds,
    rows: await productionRows(),
    acked: load.acksBefore === null || acksAfter === null ? null : acksAfter - load.acksBefore,
    ...d,
  });
}

/**
 * Work no client waits for any more (its SPS was never answered) is stopped with the processes
 * doing it, once the run is judged (a variant stopped before would read as switched): the next
 * run, or the next test's bring-up, starts on fresh processes instead of waiting while they grade
 * it (ensureUp / bringUp bring the variant back, warmed up again).
 */
async function discardBacklog(ctx: TestContext, r: number, open: number): Promise<void> {
  phase(`run ${r}: ${open} productions still open, none told accepted: stopping ${ctx.opts.variant} rather than waiting for work no client waits for`);
  await variantDown();
}

/** Validity, resources, energy, restarts: the run's record (run-N.json). */
async function judgeAndRecord(ctx: TestContext, r: number, load: LoadResult, audit: Audit): Promise<RunRecord> {
  const { paper } = load;
  const holdFromMs = load.loadFromMs + ctx.profile.rampS * 1000;
  const client = ctx.placement ? { cores: ctx.placementPlan.clientCpus.length, limitShare: DEFAULT_VALIDITY.clientMaxCpusetShare } : undefined;
  const resources = summarizeResources(
    ctx.sampler!.samples.filter((s) => s.run === r),
    ctx.meta.machine.memBytes,
    DEFAULT_VALIDITY.k6SaturationPct,
    { loadFromMs: load.loadFromMs, holdFromMs, holdToMs: holdFromMs + ctx.profile.holdS * 1000 },
    client,
  );
  const after = await variantStatus();
  // Every process of the system now — graders and restarts born during the run included — must still be off the client's CPUs.
  const trespassers = ctx.placement ? await ctx.placement.trespassers(sutRoots(after)) : [];
  const validity = judgeRun({
    droppedIterations: paper.droppedIterations,
    k6ExitCode: load.code,
    clientErrors: (paper.clientErrors ?? 0) + clientResourceErrors(join(ctx.dir, `k6-run-${r}.log`)),
    resources,
    variantSwitched: after.variant !== load.variantBefore,
    audit,
    placement: { state: ctx.placementPlan.state, clientCpus: formatCpuList(ctx.placementPlan.clientCpus), trespassers },
    quiet: ctx.quiet,
  });
  const restarts = Object.fromEntries(
    Object.entries(restartsOf(after))
      .map(([k, v]) => [k, v - (load.restartsBefore[k] ?? 0)])
      .filter(([, d]) => (d as number) > 0),
  );
  const durationS = paper.durationS;
  const record: RunRecord = {
    run: r,
    startedAt: load.startedAt,
    endedAt: new Date().toISOString(),
    k6ExitCode: load.code,
    valid: validity.valid,
    reasons: validity.reasons,
    paper,
    resources,
    derived: {
      cpuSPerOk: paper.OK > 0 ? resources.variantCpuS / paper.OK : null,
      machineCpuSPerOk: paper.OK > 0 ? resources.machineCpuSButClient / paper.OK : null,
      cpuSPerIteration: paper.iterations.started > 0 ? resources.variantCpuS / paper.iterations.started : null,
      machineCpuSPerIteration: paper.iterations.started > 0 ? resources.machineCpuSButClient / paper.iterations.started : null,
      k6CpuSPerIteration: paper.iterations.started > 0 ? resources.k6CpuS / paper.iterations.started : null,
      energyWh: energyWh(load.energyStartUj, load.energyEndUj),
      energyEstimate: estimateEnergy(resources.machineCpuSButClient, durationS, ctx.meta.machine.cores, ctx.meta.powerModel),
    },
    crashes: load.crashes,
    restarts,
    audit,
    dashboard: load.dashboard,
    // The machine is shared: the 1-min load average says how busy it was besides us.
    loadAvg1: { before: load.loadBefore, after: loadavg()[0] },
    ...(ctx.quiet ? { quietBeforeLoad: ctx.quiet } : {}),
  };
  writeFileSync(join(ctx.dir, `run-${r}.json`), JSON.stringify(record, null, 2));
  return record;
}

/** Suites: per-step table, timelines and the kind's verdict from the request lines (suite-run-N.json). */
async function writeSuiteRun(ctx: TestContext, r: number, load: LoadResult): Promise<SuiteRun> {
  const schedule = readSchedule(join(ctx.dir, `k6-run-${r}.json`));
  if (!schedule) throw new Error(`k6-run-${r}.json has no step schedule: was k6/lib/config.js given the suite?`);
  const lines = await readRequestLines(join(ctx.dir, `k6-run-${r}.log`));
  const suiteRun = analyseSuiteRun({
    run: r,
    suite: ctx.profile.suite!,
    schedule,
    ...lines,
    samples: ctx.sampler!.samples.filter((s) => s.run === r),
    loadFromMs: load.loadFromMs,
    k6: { OK: load.paper.OK, KO: load.paper.KO, iterations: load.paper.iterations.started },
  });
  writeFileSync(join(ctx.dir, `suite-run-${r}.json`), JSON.stringify(suiteRun, null, 2));
  phase(`run ${r}: ${suiteLine(suiteRun)} -> suite-run-${r}.json`);
  return suiteRun;
}

/** Step 6 (between runs): productions deleted, then the pause. */
async function betweenRuns(ctx: TestContext, r: number): Promise<void> {
  phase('deleting productions (db reset)');
  await resetProductions();
  if (r < ctx.runs) {
    phase(`pause ${ctx.betweenS}s before the next run`);
    await sleep(ctx.betweenS * 1000);
  }
}

async function stopSampling(ctx: TestContext): Promise<void> {
  if (!ctx.sampler) return;
  writeResources(ctx.dir, await ctx.sampler.stop());
}

async function tearDown(ctx: TestContext): Promise<void> {
  if (!ctx.wasUp && !ctx.opts.keepUp) {
    phase(`bringing ${ctx.opts.variant} down`);
    await variantDown();
  } else if (ctx.opts.cpuProfile) {
    // Profiles are written when a process exits: restart it unprofiled.
    await variantUp(ctx.upTarget);
  }
  if (ctx.opts.cpuProfile) writeProfileSummary(ctx);
}

/** Launcher options of this test: CPU profiles into the run folder. */
function upFlags(ctx: TestContext): UpOptions {
  const scaled = ctx.placementPlan.testbed?.testbed === 'scaled' ? { cpuGroupRoot: ctx.placementPlan.testbed.root } : {};
  return { ...(ctx.opts.cpuProfile ? { cpuProfileDir: join(ctx.dir, 'profiles') } : {}), ...scaled };
}

/** profiles.md / profiles.json: the services' JavaScript CPU by component and their top functions (profiling/cpu-profile.ts). */
function writeProfileSummary(ctx: TestContext): void {
  const dir = join(ctx.dir, 'profiles');
  if (!existsSync(dir)) {
    phase('no CPU profiles were written');
    return;
  }
  const summaries = readProfileDir(dir);
  const iterations = ctx.records.reduce((n, r) => n + r.paper.iterations.started, 0) || null;
  writeFileSync(join(ctx.dir, 'profiles.json'), JSON.stringify({ iterations, summaries }, null, 2));
  writeFileSync(join(ctx.dir, 'profiles.md'), profilesMarkdown(summaries, iterations) + '\n');
  phase(`wrote ${join(ctx.dir, 'profiles.md')} (${summaries.length} processes; the .cpuprofile files open in Chrome DevTools or speedscope)`);
}

/** Step 7: the test's aggregate — means over VALID runs only, every run listed with its reasons. */
function writeAggregate(ctx: TestContext): Aggregated {
  const records = ctx.records;
  ctx.meta.endedAt = records.length ? records[records.length - 1].endedAt : new Date().toISOString();
  writeMeta(ctx);
  const aggregated = aggregateTest(ctx.meta, records, ctx.runs);
  writeFileSync(join(ctx.dir, 'aggregated.json'), JSON.stringify(aggregated, null, 2));
  completeManifest(ctx.dir, ctx.meta.endedAt);
  phase(`wrote ${join(ctx.dir, 'aggregated.json')} (${aggregated.validRuns}/${aggregated.runsAsked} runs VALID)`);
  return aggregated;
}

function writeMeta(ctx: TestContext): void {
  writeFileSync(join(ctx.dir, 'meta.json'), JSON.stringify(ctx.meta, null, 2));
}

function runLine(r: number, runs: number, record: RunRecord): string {
  const p = record.paper.stages?.hold ?? record.paper;
  const res = record.resources;
  return [
    `run ${r}/${runs} ${record.valid ? 'VALID' : 'INVALID: ' + record.reasons.join('; ')}`,
    `hold stage: efr_paper ${pct(p.efr_paper)}, ko_rate ${pct(p.ko_rate)}, RAC ${pct(p.RAC)}, SPS efr_paper ${pct(p.sps.efr_paper)}`,
    `audit ${record.audit?.summary ?? 'n/a'}`,
    record.crashes.length ? `crashes: ${record.crashes.map((c) => c.process).join(', ')}` : 'no crash',
    `variant CPU ${res.variantCpuS.toFixed(1)} s (${res.cpuSource}), machine but client ${res.machineCpuSButClient.toFixed(1)} s (harness ${res.harnessCpuS.toFixed(1)} s), residual ${pct(res.cpuResidualShare)}, k6 CPU max ${res.k6CpuMaxPct.toFixed(0)}%`,
    ...(res.client ? [`client CPU (k6 + harness) ${pct(res.client.meanShare)} of its cpuset on average, max ${pct(res.client.maxShare)} (${res.client.cores} CPU)`] : []),
  ].join(' — ');
}

function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? 'n/a' : `${(100 * v).toFixed(1)}%`;
}
