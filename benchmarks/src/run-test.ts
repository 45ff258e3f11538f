// `bench run`: one *test* of the paper's protocol (§IV-B) on one variant — bring it up, seed,
// warm up, then R runs of benchmarks/sps.js with pauses, each drained, audited and judged,
// productions deleted after each run, resources sampled throughout — and the results folder
// results/<run-id>/. runTest reads as the sequence of its steps, each a function of the earlier
// steps' outputs returning its own (run-test/steps.ts): plan -> launch -> place -> warm-up ->
// collect -> load and judge, run by run -> write. meta.json is the plan's meta with each step's
// facts laid over it (run-test/write.ts), written by this runner alone.
import type { Aggregated, RunRecord } from './types';
import { exclusive } from './harness-lock';
import { NOT_PLACED, type Placed, type RunOptions } from './run-test/steps';

export { makeRunId, type RunHooks, type RunOptions } from './run-test/steps';
import { planTest, recordProvenance } from './run-test/plan';
import { launch, place, checkPlacement, undoPlacement, tearDown } from './run-test/launch';
import { seedAndWarmUp } from './run-test/warm-up';
import { startSampling, stopSampling } from './run-test/collect';
import { measuredRun, betweenRuns } from './run-test/load';
import { writeAggregate, writeMeta, type MetaFacts } from './run-test/write';

export function runTest(opts: RunOptions): Promise<Aggregated> {
  return exclusive(`bench run ${opts.variant} (${opts.profile})`, () => runTestNow(opts));
}

async function runTestNow(opts: RunOptions): Promise<Aggregated> {
  const plan = await planTest(opts);
  await recordProvenance(plan);
  const launched = await launch(plan);
  let facts: MetaFacts = { entry: launched.entry };
  writeMeta(plan, facts);
  const records: RunRecord[] = [];
  let placed: Placed = NOT_PLACED;
  try {
    placed = await place(plan, launched.status);
    facts = { ...facts, placed };
    await checkPlacement(placed, launched.status);
    writeMeta(plan, facts);
    const warm = await seedAndWarmUp(plan, launched, placed);
    facts = { ...facts, warmUp: warm.warmUp };
    writeMeta(plan, facts);
    const sampling = startSampling(plan, placed, warm.status);
    facts = { ...facts, sampling: { startedAt: sampling.startedAt, cpuAccounting: sampling.sampler.cpuAccounting, machineCpuAccounting: sampling.sampler.machineCpuAccounting } };
    writeMeta(plan, facts);
    try {
      for (let r = 1; r <= plan.runs; r++) {
        const run = await measuredRun({ plan, launched, placed, warm, sampling }, r);
        records.push(run.record);
        // The run's quotas and throttling (the scale model's record) reach meta.json.
        if (placed.quota) writeMeta(plan, facts);
        await betweenRuns(plan, r);
      }
    } finally {
      await stopSampling(plan, sampling);
      await tearDown(plan, launched, records);
    }
  } finally {
    undoPlacement(placed);
    // The released placement, and a failed run's throttling, reach meta.json.
    if (placed.placement || placed.quota) writeMeta(plan, facts);
  }
  return writeAggregate(plan, facts, records);
}
