// Step load, one measured run: an idle system, k6 against the entry with crashes watched and
// energy read, then the audit and the judgement (judge.ts); between runs, productions deleted.
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
import { processGroupsOf, resetProductions, variantStatus, type VariantStatus } from '../stack';
import { processIdentity, recordWarm } from '../warm-processes';
import { throttlingText } from '../placement/quota-session';
import { DEFAULT_QUIET, waitForQuiet, type QuietWait } from '../quiet';
import { restartsOf, type LoadResult, type RunInput, type RunOutcome, type TestPlan } from './steps';
import { ensureUp, placeSut, applyQuotas } from './launch';
import { auditRun, discardBacklog, judgeAndRecord, writeSuiteRun, runLine } from './judge';

/** One measured run: load, drain and audit, judgement, record; the variant as the run left it. */
export async function measuredRun(input: RunInput, r: number): Promise<RunOutcome> {
  const { plan, placed, warm } = input;
  const status = await ensureUp(plan, placed);
  const quiet = await quietBeforeLoad(plan, r);
  // A process pm2 restarted since is born outside its quota group: every run starts with all of them in.
  if (placed.quota) await applyQuotas(placed.quota, status);
  placed.quota?.runStarted();
  const load = await driveLoad(input, status, quiet, r);
  if (placed.quota) phase(`run ${r} throttling: ${throttlingText(placed.quota.runEnded(r))}`);
  const audit = await auditRun(plan, r, load);
  const record = await judgeAndRecord(input, r, load, audit);
  phase(runLine(r, plan.runs, record));
  // Still the processes warmed before: they stay marked warm (a restarted one is not, nor one stopped with its backlog).
  if (audit.discarded) await discardBacklog(plan, r, audit.discarded);
  else if (warm.warmIdentity && processIdentity(load.status)?.join(' ') === warm.warmIdentity.join(' ')) recordWarm(load.status, plan.meta.runId);
  if (plan.profile.suite) await writeSuiteRun(input, r, load);
  return { record, status: load.status };
}

/** An idle system before the load (quiet.ts): the system's CPUs under placement, else the machine's. */
export async function quietBeforeLoad(plan: TestPlan, r: number): Promise<QuietWait | null> {
  if (!(plan.opts.quietWait ?? plan.opts.findings)) return null;
  const cpus = plan.placementPlan.state === 'on' ? plan.placementPlan.sutCpus : null;
  phase(`run ${r}: waiting for an idle system (below ${DEFAULT_QUIET.thresholdCores} cores for ${DEFAULT_QUIET.quietS} s, at most ${DEFAULT_QUIET.timeoutS} s)`);
  const q = await waitForQuiet(cpus);
  phase(q.quiet ? `run ${r}: idle after ${q.waitedS.toFixed(0)} s` : `run ${r}: still busy after ${q.waitedS.toFixed(0)} s (${q.lastCores.toFixed(2)} cores): the run will be INVALID`);
  return q;
}

/** k6 against the entry, with crashes watched and the sampler told about k6 and restarted processes. */
async function driveLoad(input: RunInput, before: VariantStatus, quiet: QuietWait | null, r: number): Promise<LoadResult> {
  const { plan, placed, sampling } = input;
  const { sampler } = sampling;
  // The variant as the run goes: a process restarted during it is followed (sampled, placed).
  let status = before;
  sampling.follow(processGroupsOf(status));
  const startedAt = new Date().toISOString();
  const restartsBefore = restartsOf(status);
  const variantBefore = status.variant;
  const loadBefore = loadavg()[0];
  const acksBefore = plan.dispatch === 'rabbitmq' ? await settledRabbitAcks() : null;
  let k6Group: ProcessGroup | null = null;
  const watch = new CrashWatch((e) => {
    phase(`run ${r}: ${e.process} (pid ${e.pid}) exited during the run — recorded, the run counts`);
    // Follow the restarted process so its CPU and memory are sampled too.
    void variantStatus()
      .then((s) => {
        status = s;
        sampling.follow([...processGroupsOf(s), ...(k6Group ? [k6Group] : [])]);
        watch.follow(s);
        return placeSut(placed, s);
      })
      .catch(() => undefined);
  });
  phase(`run ${r}/${plan.runs}: k6 (profile ${plan.opts.profile}) against ${input.launched.entry}`);
  const inv = k6Invocation({
    k6: plan.k6,
    dir: plan.dir,
    tag: `run-${r}`,
    entry: input.launched.entry,
    usersCsv: plan.usersCsv,
    profile: plan.opts.profile,
    overrides: plan.k6Overrides,
    raw: Boolean(plan.opts.raw),
    dashboard: plan.opts.dashboard !== false,
  });
  const rapl = raplDomains();
  const energyStartUj = readEnergyUj(rapl);
  // What the caches did over the run, per process (paper 001): their /metrics before and after.
  const cachesBefore = await scrapeCaches(status.processes);
  watch.start(status);
  const hooks: Promise<void>[] = [];
  const code = await runK6(inv, (pid) => {
    k6Group = { name: K6_GROUP, role: 'load', pid };
    sampling.follow([...processGroupsOf(status), k6Group]);
    void sampler.mark(r);
    if (plan.opts.hooks?.duringLoad) hooks.push(plan.opts.hooks.duringLoad(r, status));
  });
  await Promise.all(hooks);
  await sampler.mark(r);
  writeFileSync(join(plan.dir, `cache-run-${r}.json`), JSON.stringify(runCacheStats(cachesBefore, await scrapeCaches(status.processes)), null, 2));
  const energyEndUj = readEnergyUj(rapl);
  const crashes = watch.stop();
  sampling.follow(processGroupsOf(status));
  await sampler.mark(0);
  const log = join(plan.dir, `k6-run-${r}.log`);
  return {
    startedAt,
    code,
    paper: readPaper(inv.options.summaryJson),
    samples: await extractSpsSamples(log, join(plan.dir, `sps-samples-run-${r}.jsonl`)),
    loadFromMs: await loadStartMs(log),
    crashes,
    restartsBefore,
    variantBefore,
    energyStartUj,
    energyEndUj,
    dashboard: inv.dashboard && existsSync(inv.dashboard) ? inv.dashboard.slice(plan.dir.length + 1) : null,
    loadBefore,
    acksBefore,
    status,
    quiet,
  };
}

/** Between runs: productions deleted, then the pause. */
export async function betweenRuns(plan: TestPlan, r: number): Promise<void> {
  phase('deleting productions (db reset)');
  await resetProductions();
  if (r < plan.runs) {
    phase(`pause ${plan.betweenS}s before the next run`);
    await sleep(plan.betweenS * 1000);
  }
}
