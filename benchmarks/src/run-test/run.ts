// Stage 3 of a test, one measured run: an idle system, k6 against the entry with crashes watched
// and energy read, then the audit and the judgement (judge.ts); between runs, productions deleted.
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { settledRabbitAcks } from '../audit';
import { CrashWatch } from '../crash-watch';
import { raplDomains, readEnergyUj } from '../energy';
import { extractSpsSamples, k6Invocation, loadStartMs, readPaper, runK6 } from '../k6-run';
import { phase } from '../log';
import type { ProcessGroup } from '../resource-sampler';
import { K6_GROUP } from '../resource-summary';
import { sleep } from '../shell';
import { runCacheStats, scrapeCaches } from '../sweep/cache-stats';
import { processGroupsOf, resetProductions, variantStatus } from '../stack';
import { processIdentity, recordWarm } from '../warm-processes';
import type { RunRecord } from '../types';
import { throttlingText } from '../placement/quota-session';
import { DEFAULT_QUIET, waitForQuiet, type QuietWait } from '../quiet';
import { restartsOf, writeMeta, type TestContext, type LoadResult } from './context';
import { ensureUp, placeSut, applyQuotas } from './bring-up';
import { auditRun, discardBacklog, judgeAndRecord, writeSuiteRun, runLine } from './judge';

/** Step 5 (per run): load, drain and audit, judgement, record. */
export async function measuredRun(ctx: TestContext, r: number): Promise<RunRecord> {
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
export async function quietBeforeLoad(ctx: TestContext, r: number): Promise<QuietWait | null> {
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

/** Step 6 (between runs): productions deleted, then the pause. */
export async function betweenRuns(ctx: TestContext, r: number): Promise<void> {
  phase('deleting productions (db reset)');
  await resetProductions();
  if (r < ctx.runs) {
    phase(`pause ${ctx.betweenS}s before the next run`);
    await sleep(ctx.betweenS * 1000);
  }
}
