// Step judge, one run: drain and audit (nothing lost or duplicated), the validity
// rules, the run's record and its one-line summary; a suite's steps analysed.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { drain, judgeAudit, productionRows, settledRabbitAcks, type Audit } from '../audit';
import { energyWh, estimateEnergy } from '../energy';
import { clientResourceErrors, readRequestLines, readSchedule } from '../k6-run';
import { phase } from '../log';
import { summarizeResources } from '../resource-summary';
import { analyseSuiteRun, type SuiteRun } from '../suites/analyse';
import { suiteLine } from '../suites/describe';
import { variantDown, variantStatus } from '../stack';
import type { RunRecord } from '../types';
import { DEFAULT_VALIDITY, judgeRun } from '../validity';
import { formatCpuList } from '../placement/cpu-list';
import { restartsOf, type LoadResult, type RunInput, type TestPlan } from './steps';
import { sutRoots } from './launch';

/** Bounded drain, then what the client was told vs what the database (and the broker) kept. */
export async function auditRun(plan: TestPlan, r: number, load: LoadResult): Promise<Audit> {
  const timeoutS = plan.opts.drainTimeoutS ?? 120;
  const accepted = load.samples.filter((s) => s.status === 201 || s.status === 202);
  const ids = accepted.map((s) => s.ep_id).filter((id): id is number => typeof id === 'number');
  // Ids when the sample lines carry every accepted SPS; counts otherwise.
  const acceptedIds = ids.length === load.paper.sps.accepted ? ids : null;
  const untoldAfterS = acceptedIds ? (plan.opts.discardUntoldAfterS ?? null) : null;
  phase(`run ${r}: draining (no production queued or grading; at most ${timeoutS} s${untoldAfterS === null ? '' : `, or ${untoldAfterS} s when no client was told of those left`})`);
  const d = await drain(timeoutS, { told: acceptedIds, untoldAfterS });
  await plan.opts.hooks?.beforeAudit?.(r);
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
export async function discardBacklog(plan: TestPlan, r: number, open: number): Promise<void> {
  phase(`run ${r}: ${open} productions still open, none told accepted: stopping ${plan.opts.variant} rather than waiting for work no client waits for`);
  await variantDown();
}

/** Validity, resources, energy, restarts: the run's record (run-N.json). */
export async function judgeAndRecord(input: RunInput, r: number, load: LoadResult, audit: Audit): Promise<RunRecord> {
  const { plan, sampling } = input;
  const { placement } = input.placed;
  const { paper, quiet } = load;
  const holdFromMs = load.loadFromMs + plan.profile.rampS * 1000;
  const client = placement ? { cores: plan.placementPlan.clientCpus.length, limitShare: DEFAULT_VALIDITY.clientMaxCpusetShare } : undefined;
  const resources = summarizeResources(
    sampling.sampler.samples.filter((s) => s.run === r),
    plan.meta.machine.memBytes,
    DEFAULT_VALIDITY.k6SaturationPct,
    { loadFromMs: load.loadFromMs, holdFromMs, holdToMs: holdFromMs + plan.profile.holdS * 1000 },
    client,
  );
  const after = await variantStatus();
  // Every process of the system now — graders and restarts born during the run included — must still be off the client's CPUs.
  const trespassers = placement ? await placement.trespassers(sutRoots(after)) : [];
  const validity = judgeRun({
    droppedIterations: paper.droppedIterations,
    k6ExitCode: load.code,
    clientErrors: (paper.clientErrors ?? 0) + clientResourceErrors(join(plan.dir, `k6-run-${r}.log`)),
    resources,
    variantSwitched: after.variant !== load.variantBefore,
    audit,
    placement: { state: plan.placementPlan.state, clientCpus: formatCpuList(plan.placementPlan.clientCpus), trespassers },
    quiet,
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
      energyEstimate: estimateEnergy(resources.machineCpuSButClient, durationS, plan.meta.machine.cores, plan.meta.powerModel),
    },
    crashes: load.crashes,
    restarts,
    audit,
    dashboard: load.dashboard,
    // The machine is shared: the 1-min load average says how busy it was besides us.
    loadAvg1: { before: load.loadBefore, after: loadavg()[0] },
    ...(quiet ? { quietBeforeLoad: quiet } : {}),
  };
  writeFileSync(join(plan.dir, `run-${r}.json`), JSON.stringify(record, null, 2));
  return record;
}

/** Suites: per-step table, timelines and the kind's verdict from the request lines (suite-run-N.json). */
export async function writeSuiteRun(input: RunInput, r: number, load: LoadResult): Promise<SuiteRun> {
  const { plan, sampling } = input;
  const schedule = readSchedule(join(plan.dir, `k6-run-${r}.json`));
  if (!schedule) throw new Error(`k6-run-${r}.json has no step schedule: was k6/lib/config.js given the suite?`);
  const lines = await readRequestLines(join(plan.dir, `k6-run-${r}.log`));
  const suiteRun = analyseSuiteRun({
    run: r,
    suite: plan.profile.suite!,
    schedule,
    ...lines,
    samples: sampling.sampler.samples.filter((s) => s.run === r),
    loadFromMs: load.loadFromMs,
    k6: { OK: load.paper.OK, KO: load.paper.KO, iterations: load.paper.iterations.started },
  });
  writeFileSync(join(plan.dir, `suite-run-${r}.json`), JSON.stringify(suiteRun, null, 2));
  phase(`run ${r}: ${suiteLine(suiteRun)} -> suite-run-${r}.json`);
  return suiteRun;
}

export function runLine(r: number, runs: number, record: RunRecord): string {
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
