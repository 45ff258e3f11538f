// Stage 5 of a test, write: the aggregate over its VALID runs and the completed manifest.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phase } from '../log';
import { completeManifest } from '../provenance/manifest';
import { aggregateTest } from '../test-aggregate';
import type { Aggregated } from '../types';
import { writeMeta, type TestContext } from './context';

/** Step 7: the test's aggregate — means over VALID runs only, every run listed with its reasons. */
export function writeAggregate(ctx: TestContext): Aggregated {
  const records = ctx.records;
  ctx.meta.endedAt = records.length ? records[records.length - 1].endedAt : new Date().toISOString();
  writeMeta(ctx);
  const aggregated = aggregateTest(ctx.meta, records, ctx.runs);
  writeFileSync(join(ctx.dir, 'aggregated.json'), JSON.stringify(aggregated, null, 2));
  completeManifest(ctx.dir, ctx.meta.endedAt);
  phase(`wrote ${join(ctx.dir, 'aggregated.json')} (${aggregated.validRuns}/${aggregated.runsAsked} runs VALID)`);
  return aggregated;
}
