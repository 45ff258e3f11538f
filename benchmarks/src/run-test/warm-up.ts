// Step warm-up: students seeded; a few SPS not measured (a second try if the variant was switched)
// unless these very processes served scenario R moments before; productions deleted.
import { join } from 'node:path';
import { k6Invocation, readPaper, runK6 } from '../k6-run';
import { phase } from '../log';
import { resetProductions, seedStudents, type VariantStatus } from '../stack';
import { processIdentity, readWarmRecord, recordWarm, warmedBy } from '../warm-processes';
import type { PaperMetrics } from '../types';
import { ensureUp } from './launch';
import type { Launched, Placed, TestPlan, WarmedUp } from './steps';

export async function seedAndWarmUp(plan: TestPlan, launched: Launched, placed: Placed): Promise<WarmedUp> {
  phase(`seeding ${plan.profile.students} students -> ${plan.usersCsv}`);
  await seedStudents(plan.profile.students, plan.usersCsv, plan.kdfCost);
  let status = await ensureUp(plan, placed);
  const warm = plan.opts.warmUp === 'always' ? null : warmedBy(status, readWarmRecord());
  let warmUp: WarmedUp['warmUp'];
  if (plan.opts.warmUp === 'never') {
    phase('no warm-up (--warm-up never): the load meets the processes as they are');
    warmUp = { skipped: true, warmedBy: 'none (--warm-up never)', agoS: 0 };
  } else if (warm) {
    const agoS = Math.round((Date.now() - warm.atMs) / 1000);
    phase(`warm-up skipped: these processes served scenario R ${agoS} s ago (${warm.runId}); --warm-up always warms up anyway`);
    warmUp = { skipped: true, warmedBy: warm.runId, agoS };
  } else {
    status = await warmUpK6(plan, launched, placed, status);
    warmUp = { skipped: false };
  }
  const warmIdentity = processIdentity(status);
  recordWarm(status, plan.meta.runId);
  await resetProductions();
  return { status, warmUp, warmIdentity };
}

/** A few SPS through k6, a second try on the variant as ensureUp leaves it; the variant as it is after. */
async function warmUpK6(plan: TestPlan, launched: Launched, placed: Placed, status: VariantStatus): Promise<VariantStatus> {
  let warm: PaperMetrics | null = null;
  for (let attempt = 1; attempt <= 2 && (warm === null || warm.sps.OK === 0); attempt++) {
    if (attempt > 1) status = await ensureUp(plan, placed);
    phase(`warm-up (a few SPS, not measured)${attempt > 1 ? ', second try' : ''}`);
    const inv = k6Invocation({
      k6: plan.k6,
      dir: plan.dir,
      tag: 'warmup',
      entry: launched.entry,
      usersCsv: plan.usersCsv,
      profile: 'smoke',
      overrides: { peak: 1, rampS: 1, holdS: 2, pauseS: 0.1, thresholds: false, logSps: false, reply: plan.reply },
    });
    await runK6(inv, () => undefined);
    warm = readPaper(inv.options.summaryJson);
  }
  if (!warm || warm.sps.OK === 0) {
    throw new Error(`warm-up failed: no SPS succeeded at ${launched.entry} (OK ${warm?.OK}, KO ${warm?.KO}); see ${join(plan.dir, 'k6-warmup.txt')}`);
  }
  return status;
}
