// Step write: meta.json as the steps so far have made it, and at the end the aggregate over the
// test's VALID runs and the completed manifest.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phase } from '../log';
import { completeManifest } from '../provenance/manifest';
import { aggregateTest } from '../test-aggregate';
import type { Aggregated, RunRecord, TestMeta } from '../types';
import type { Placed, TestPlan } from './steps';

/** What the steps after the plan add to meta.json, each its own fact. */
export interface MetaFacts {
  /** launch */
  readonly entry?: string;
  /** place: the live sessions' records (the quotas and the throttling grow run by run) */
  readonly placed?: Placed;
  /** warm-up */
  readonly warmUp?: TestMeta['warmUp'];
  /** collect: the measured window's start and where the CPU figures come from */
  readonly sampling?: { readonly startedAt: string; readonly cpuAccounting: string; readonly machineCpuAccounting: string };
  /** write */
  readonly endedAt?: string;
}

/**
 * meta.json: the plan's meta with the facts laid over it, in the order a reader has always found
 * them (the plan's keys in place, then warmUp, cpuAccounting, endedAt). The placement is the live
 * session's record, with the scale model's record as its testbed.
 */
export function metaOf(plan: TestPlan, facts: MetaFacts): TestMeta {
  const { placed } = facts;
  const placement = placed?.placement?.record ?? plan.meta.placement;
  return {
    ...plan.meta,
    ...(facts.entry !== undefined ? { entry: facts.entry } : {}),
    ...(facts.sampling ? { startedAt: facts.sampling.startedAt } : {}),
    placement: placed?.quota && placement ? { ...placement, testbed: placed.quota.record } : placement,
    ...(facts.warmUp ? { warmUp: facts.warmUp } : {}),
    ...(facts.sampling ? { cpuAccounting: facts.sampling.cpuAccounting, machineCpuAccounting: facts.sampling.machineCpuAccounting } : {}),
    ...(facts.endedAt !== undefined ? { endedAt: facts.endedAt } : {}),
  };
}

export function writeMeta(plan: TestPlan, facts: MetaFacts): void {
  writeFileSync(join(plan.dir, 'meta.json'), JSON.stringify(metaOf(plan, facts), null, 2));
}

/** The test's aggregate — means over VALID runs only, every run listed with its reasons. */
export function writeAggregate(plan: TestPlan, facts: MetaFacts, records: readonly RunRecord[]): Aggregated {
  const endedAt = records.length ? records[records.length - 1].endedAt : new Date().toISOString();
  const meta = metaOf(plan, { ...facts, endedAt });
  writeFileSync(join(plan.dir, 'meta.json'), JSON.stringify(meta, null, 2));
  const aggregated = aggregateTest(meta, [...records], plan.runs);
  writeFileSync(join(plan.dir, 'aggregated.json'), JSON.stringify(aggregated, null, 2));
  completeManifest(plan.dir, endedAt);
  phase(`wrote ${join(plan.dir, 'aggregated.json')} (${aggregated.validRuns}/${aggregated.runsAsked} runs VALID)`);
  return aggregated;
}
