// Stage 2 of a test, the system under test: the variant up (and back up after a crash), its
// processes placed on their cpusets and quota groups, students seeded, the warm-up, resource
// sampling, and at the end the variant left as it was found.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { k6Invocation, readPaper, runK6 } from '../k6-run';
import { phase } from '../log';
import { ResourceSampler } from '../resource-sampler';
import { writeResources } from '../resources-file';
import { profilesMarkdown, readProfileDir } from '../profiling/cpu-profile';
import { entryUrl, processGroupsOf, resetProductions, seedStudents, variantDown, variantRunning, variantStatus, variantUp, type VariantStatus } from '../stack';
import { processIdentity, readWarmRecord, recordWarm, warmedBy } from '../warm-processes';
import type { PaperMetrics } from '../types';
import { formatCpuList } from '../placement/cpu-list';
import { PlacementSession } from '../placement/session';
import { QuotaSession } from '../placement/quota-session';
import { isUp, upFlags, writeMeta, type TestContext } from './context';

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
export async function bringUp(ctx: TestContext): Promise<void> {
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
export async function ensureUp(ctx: TestContext): Promise<void> {
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
export function sutRoots(status: VariantStatus): number[] {
  return processGroupsOf(status).map((g) => g.pid);
}

/**
 * Step 2b (placement on): the system under test — variant processes, native servers, their
 * descendants and pm2's daemon — into its cpuset, the harness into the client's (k6 and every
 * other child it starts from now on is born there). Checked against the kernel's Cpus_allowed_list.
 */
export async function placeProcesses(ctx: TestContext): Promise<void> {
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
export async function placeSut(ctx: TestContext): Promise<void> {
  if (ctx.quota) await applyQuotas(ctx);
  if (ctx.placement) await ctx.placement.placeSut(sutRoots(ctx.status));
}

/**
 * Step 2a (testbed scaled): each container of the system under test — variant process with its
 * descendants, native server with its children — into its quota group (placement/quota-session.ts).
 * Idempotent: again after a re-up. The processes were started told their group (upFlags), so the
 * groups of their gradings nest under it.
 */
export async function applyQuotas(ctx: TestContext): Promise<void> {
  const plan = ctx.placementPlan.testbed;
  if (plan?.testbed !== 'scaled') return;
  ctx.quota ??= new QuotaSession(plan, ctx.cpuQuota!);
  const moved = await ctx.quota.apply(processGroupsOf(ctx.status).map((g) => ({ name: g.name, pid: g.pid })));
  ctx.placementPlan.testbed = ctx.quota.record;
  if (ctx.meta.placement) ctx.meta.placement.testbed = ctx.quota.record;
  writeMeta(ctx);
  phase(`scale model: ${moved} processes moved into their quota groups under ${ctx.quota.groups.root}`);
}

export function undoPlacement(ctx: TestContext): void {
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
export async function seedAndWarmUp(ctx: TestContext): Promise<void> {
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

export async function warmUp(ctx: TestContext): Promise<void> {
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
export function startSampling(ctx: TestContext): void {
  ctx.meta.startedAt = new Date().toISOString();
  ctx.groups = processGroupsOf(ctx.status);
  // cgroup v2: a process is in one cgroup only; the sampler's per-group cgroups would take the
  // system out of its cpuset, so its CPU comes from /proc then (v1: separate hierarchies).
  ctx.sampler = new ResourceSampler(() => ctx.groups, !(ctx.placement && ctx.placementPlan.cgroup === 2) && ctx.quota?.groups.flavour.version !== 2);
  ctx.meta.cpuAccounting = ctx.sampler.cpuAccounting;
  writeMeta(ctx);
  ctx.sampler.start();
}

export async function stopSampling(ctx: TestContext): Promise<void> {
  if (!ctx.sampler) return;
  writeResources(ctx.dir, await ctx.sampler.stop());
}

export async function tearDown(ctx: TestContext): Promise<void> {
  if (!ctx.wasUp && !ctx.opts.keepUp) {
    phase(`bringing ${ctx.opts.variant} down`);
    await variantDown();
  } else if (ctx.opts.cpuProfile) {
    // Profiles are written when a process exits: restart it unprofiled.
    await variantUp(ctx.upTarget);
  }
  if (ctx.opts.cpuProfile) writeProfileSummary(ctx);
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
