// The live side of `bench reproduce 000`: naked-mon's paper-equivalent load (searched, or given),
// then rounds — every configuration once per round in a seeded random order — each run at that
// one load, as the paper ran every configuration at 200 users/s. The record is written after
// every run; rounds past the minimum of 3 start only while they fit the budget. A reproduction
// cut short is continued on the same boot (its rounds are compared with each other): the runs
// it lacks, in the rounds' seeded order.
import { mkdirSync } from 'node:fs';
import { phase } from '../log';
import { makeRunId, runTest } from '../run-test';
import { variantDown } from '../stack';
import type { PlacementRequest } from '../placement/plan';
import { projectCommit } from '../provenance/facts';
import { currentBootId } from '../machine-speed';
import { roundOverBudget } from '../findings/budget';
import { CAPACITY_VARIANT, paperProbeOf, paperResult, peakAt, searchPaperLoad } from '../findings/loads';
import { DISCARD_UNTOLD_AFTER_S } from '../findings/pricing';
import { roundOrder, seededRng } from '../findings/schedule';
import { runRoundInOrder } from '../findings/round-runs';
import { exclusive } from '../harness-lock';
import { MIN_RUNS, type ReproducePlan } from './plan';
import { writeReproduceRecord, type ReproduceRecord } from './record';

/** One run of a configuration at a rate, labelled (the run id's suffix). */
export type RunOne = (variant: string, peak: number, label: string) => ReturnType<typeof runTest>;

/** How runs are made and the stack taken down after them: real tests (liveRunner), or a unit test's own. */
export interface Runner {
  run: RunOne;
  down: () => Promise<void>;
}

export function liveRunner(plan: ReproducePlan, placement?: PlacementRequest): Runner {
  const pr = plan.protocol;
  return {
    run: (variant, peak, label) => runTest({ variant, profile: pr.profile, runs: 1, peak, rampS: pr.rampS, holdS: pr.holdS, pauseS: pr.pauseS, timeoutS: pr.timeoutS, runId: makeRunId(variant, label, undefined), keepUp: true, findings: true, placement, discardUntoldAfterS: DISCARD_UNTOLD_AFTER_S }),
    down: () => variantDown(),
  };
}

export function runReproduction(plan: ReproducePlan, dir: string, runner: Runner): Promise<ReproduceRecord> {
  return exclusive('bench reproduce 000', () => runNow(plan, dir, runner));
}

/** More runs for a recorded reproduction: each configuration up to the runs it asked, on the boot that made its runs. */
export async function continueReproduction(plan: ReproducePlan, record: ReproduceRecord, dir: string, runner: Runner): Promise<ReproduceRecord> {
  const boot = currentBootId();
  if (!record.bootId || record.bootId !== boot) throw new Error(`--continue: the record's runs were made on boot ${record.bootId ?? '(not recorded)'}, this is boot ${boot ?? '(unknown)'}: a reproduction ranks its runs against each other, so all of them run on one boot — start a new one`);
  if (record.peak === null) throw new Error(`--continue: the record found no paper-equivalent load (${record.stoppedEarly ?? 'no search result'}) — start a new one`);
  if (missingRuns(record) === 0) throw new Error(`--continue: every configuration already has its ${record.runsAsked} runs — score it with --evaluate ${dir}`);
  return exclusive('bench reproduce 000 --continue', async () => {
    const session = { startedAt: new Date().toISOString(), endedAt: null as string | null, commit: await projectCommit() };
    (record.continuations ??= []).push(session);
    delete record.stoppedEarly;
    const save = (): void => writeReproduceRecord(dir, record);
    try {
      await runRounds(record, plan, runner.run, save, Date.now());
    } finally {
      session.endedAt = record.endedAt = new Date().toISOString();
      save();
      await runner.down().catch(() => undefined);
    }
    return record;
  });
}

/** Runs a configuration has been given (kept or failed). */
const attempted = (record: Pick<ReproduceRecord, 'runs' | 'failed'>, variant: string): number => (record.runs[variant]?.length ?? 0) + record.failed.filter((f) => f.variant === variant).length;

/** Runs the record still lacks to give every configuration the runs it asked. */
export function missingRuns(record: ReproduceRecord): number {
  return record.configurations.reduce((n, c) => n + Math.max(0, record.runsAsked - attempted(record, c.variant)), 0);
}

async function runNow(plan: ReproducePlan, dir: string, runner: Runner): Promise<ReproduceRecord> {
  const one = runner.run;
  mkdirSync(dir, { recursive: true });
  const pr = plan.protocol;
  const rate = plan.capacity.rate;
  const record: ReproduceRecord = {
    paper: '000',
    mode: plan.mode,
    seed: plan.seed,
    testbed: plan.testbed,
    capacity: plan.capacity,
    search: paperResult([]),
    peak: null,
    runsAsked: plan.runs,
    budgetMin: plan.budgetMin,
    configurations: plan.configurations.map((c) => ({ label: c.label, variant: c.variant })),
    rounds: [],
    runs: {},
    failed: [],
    commit: await projectCommit(),
    bootId: currentBootId(),
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
  const save = (): void => writeReproduceRecord(dir, record);
  try {
    if (plan.multipleGiven) {
      record.peak = peakAt(plan.paperStart.multiple, rate);
    } else {
      record.search = await searchPaperLoad(
        async (m, peak) => {
          phase(`reproduce: paper-equivalent search, ${CAPACITY_VARIANT} at ${m}× = ${peak} it/s`);
          return paperProbeOf(m, peak, await one(CAPACITY_VARIANT, peak, `reproduce-search-${m}x`));
        },
        pr.paperProbes,
        (s) => {
          record.search = s;
          save();
        },
        { first: plan.paperStart.multiple, rate },
      );
      record.peak = record.search.multiple === null ? null : peakAt(record.search.multiple, rate);
    }
    if (record.peak === null) {
      record.stoppedEarly = `no paper-equivalent load: ${record.search.notFound ?? 'the search found none'}`;
      phase(`reproduce: stopped, ${record.stoppedEarly}`);
      return record;
    }
    phase(`reproduce: every configuration at ${record.peak} it/s`);
    await runRounds(record, plan, one, save, Date.parse(record.startedAt));
  } finally {
    record.endedAt = new Date().toISOString();
    save();
    await runner.down().catch(() => undefined);
  }
  return record;
}

/**
 * Every round in the seeded order the plan printed, with the configurations due in it: those with
 * fewer runs (kept or failed) than the round's number — all of them in a new reproduction, the
 * ones it lacks in a continued one.
 */
export function roundsDue(record: Pick<ReproduceRecord, 'seed' | 'configurations' | 'runsAsked' | 'runs' | 'failed'>): { round: number; order: string[]; due: string[] }[] {
  const rng = seededRng(record.seed);
  const cells = record.configurations.map((c) => ({ variant: c.variant, level: 'paper' as const }));
  const before = new Map(record.configurations.map((c) => [c.variant, attempted(record, c.variant)]));
  return Array.from({ length: record.runsAsked }, (_, i) => {
    const order = roundOrder(cells, rng).map((c) => c.variant);
    return { round: i + 1, order, due: order.filter((v) => before.get(v)! < i + 1) };
  });
}

async function runRounds(record: ReproduceRecord, plan: ReproducePlan, one: RunOne, save: () => void, budgetFrom: number): Promise<void> {
  const peak = record.peak!;
  const started = Date.now();
  let runsDone = 0;
  for (const { round, order, due } of roundsDue(record)) {
    if (!due.length) continue;
    const over = runsDone ? roundOverBudget({ round, minRuns: MIN_RUNS, elapsedS: (Date.now() - budgetFrom) / 1000, secondsPerRun: (Date.now() - started) / 1000 / runsDone, cells: due.length, budgetS: plan.budgetMin * 60 }) : null;
    if (over) {
      record.stoppedEarly = `time budget: ${over}`;
      phase(`reproduce: stopped, ${record.stoppedEarly}`);
      return;
    }
    if (record.rounds.length < round) record.rounds.push(order);
    runsDone += await runRoundInOrder(due, {
      study: 'reproduce',
      round,
      keyOf: (variant) => variant,
      run: (variant) => one(variant, peak, `reproduce-r${round}`),
      runs: record.runs,
      failed: (variant, error) => record.failed.push({ variant, round, error }),
      save,
    });
  }
}
