// The live side of `bench reproduce 000`: naked-mon's paper-equivalent load (searched, or given),
// then rounds — every configuration once per round in a seeded random order — each run at that
// one load, as the paper ran every configuration at 200 users/s. The record is written after
// every run; rounds past the minimum of 3 start only while they fit the budget.
import { mkdirSync } from 'node:fs';
import { phase } from '../log';
import { makeRunId, runTest } from '../run-test';
import { variantDown } from '../stack';
import type { PlacementRequest } from '../placement/plan';
import { projectCommit } from '../provenance/facts';
import { roundOverBudget } from '../findings/budget';
import { CAPACITY_VARIANT, paperProbeOf, paperResult, searchPaperLoad } from '../findings/loads';
import { DISCARD_UNTOLD_AFTER_S } from '../findings/pricing';
import { roundOrder, seededRng } from '../findings/schedule';
import { runRoundInOrder } from '../findings/round-runs';
import { exclusive } from '../harness-lock';
import { MIN_RUNS, type ReproducePlan } from './plan';
import { writeReproduceRecord, type ReproduceRecord } from './record';

export function runReproduction(plan: ReproducePlan, dir: string, placement?: PlacementRequest): Promise<ReproduceRecord> {
  return exclusive('bench reproduce 000', () => runNow(plan, dir, placement));
}

async function runNow(plan: ReproducePlan, dir: string, placement?: PlacementRequest): Promise<ReproduceRecord> {
  if (!plan.capacity) throw new Error('no sustainable rate of naked-mon: run `npm run bench -- calibrate --variant naked-mon` first, or pass --rate <it/s>');
  mkdirSync(dir, { recursive: true });
  const pr = plan.protocol;
  const rate = plan.capacity.rate;
  const started = Date.now();
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
    startedAt: new Date(started).toISOString(),
    endedAt: null,
  };
  const save = (): void => writeReproduceRecord(dir, record);
  const one = (variant: string, peak: number, label: string) =>
    runTest({ variant, profile: pr.profile, runs: 1, peak, rampS: pr.rampS, holdS: pr.holdS, pauseS: pr.pauseS, timeoutS: pr.timeoutS, runId: makeRunId(variant, label, undefined), keepUp: true, findings: true, placement, discardUntoldAfterS: DISCARD_UNTOLD_AFTER_S });
  try {
    const peakAt = (m: number): number => Math.max(1, Math.round(m * rate));
    if (plan.multipleGiven) {
      record.peak = peakAt(plan.paperStart.multiple);
    } else {
      record.search = await searchPaperLoad(
        async (m) => {
          phase(`reproduce: paper-equivalent search, ${CAPACITY_VARIANT} at ${m}× = ${peakAt(m)} it/s`);
          return paperProbeOf(m, peakAt(m), await one(CAPACITY_VARIANT, peakAt(m), `reproduce-search-${m}x`));
        },
        pr.paperProbes,
        (s) => {
          record.search = s;
          save();
        },
        { first: plan.paperStart.multiple },
      );
      record.peak = record.search.multiple === null ? null : peakAt(record.search.multiple);
    }
    if (record.peak === null) {
      record.stoppedEarly = `no paper-equivalent load: ${record.search.notFound ?? 'the search found none'}`;
      phase(`reproduce: stopped, ${record.stoppedEarly}`);
      return record;
    }
    const peak = record.peak;
    phase(`reproduce: every configuration at ${peak} it/s`);
    const rng = seededRng(plan.seed);
    const cells = plan.configurations.map((c) => ({ variant: c.variant, level: 'paper' as const }));
    const roundsStarted = Date.now();
    let runsDone = 0;
    for (let round = 1; round <= plan.runs; round++) {
      const over = runsDone ? roundOverBudget({ round, minRuns: MIN_RUNS, elapsedS: (Date.now() - started) / 1000, secondsPerRun: (Date.now() - roundsStarted) / 1000 / runsDone, cells: cells.length, budgetS: plan.budgetMin * 60 }) : null;
      if (over) {
        record.stoppedEarly = `time budget: ${over}`;
        phase(`reproduce: stopped, ${record.stoppedEarly}`);
        break;
      }
      const order = roundOrder(cells, rng).map((c) => c.variant);
      record.rounds.push(order);
      runsDone += await runRoundInOrder(order, {
        study: 'reproduce',
        round,
        keyOf: (variant) => variant,
        run: (variant) => one(variant, peak, `reproduce-r${round}`),
        runs: record.runs,
        failed: (variant, error) => record.failed.push({ variant, round, error }),
        save,
      });
    }
  } finally {
    record.endedAt = new Date().toISOString();
    save();
    await variantDown().catch(() => undefined);
  }
  return record;
}
