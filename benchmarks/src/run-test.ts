// `bench run`: one *test* of the paper's protocol (§IV-B) on one variant — bring it up, seed,
// warm up, then R runs of benchmarks/sps.js with pauses, each drained, audited and judged,
// productions deleted after each run, resources sampled throughout — and the results folder
// results/<run-id>/. runTest reads as the sequence of its steps; each stage has a file of its own
// in run-test/: context (what a test carries), prepare, bring-up, run, judge, write.
import type { Aggregated } from './types';
import { exclusive } from './harness-lock';
import type { RunOptions } from './run-test/context';

export { makeRunId, type RunHooks, type RunOptions } from './run-test/context';
import { prepareTest, recordProvenance } from './run-test/prepare';
import { bringUp, placeProcesses, undoPlacement, seedAndWarmUp, startSampling, stopSampling, tearDown } from './run-test/bring-up';
import { measuredRun, betweenRuns } from './run-test/run';
import { writeAggregate } from './run-test/write';

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
