// One suite run analysed: per-step table, timeline, memory over time and the kind's verdict —
// the content of suite-run-N.json (written by run-test.ts, read by the report).
import type { Suite } from '../profiles';
import type { ResourceSample } from '../resource-sampler';
import { memorySeries, variantPss, type MemorySeries } from './memory';
import type { IterationSample, RequestSample } from './samples';
import { soakVerdict, type SoakVerdict } from './soak';
import { spikeRecovery, type SpikeVerdict } from './spike';
import { stepStats, type ScheduledStep, type StepStats } from './step-stats';
import { stressVerdict, type StressVerdict } from './stress';
import { timeline, type TimeWindow } from './timeline';

export interface SuiteRun {
  schema: 'shellgrade.suite-run/1';
  run: number;
  kind: Suite['kind'];
  windowS: number;
  loadFromMs: number;
  schedule: ScheduledStep[];
  /** From the request lines; `k6` from k6's own counters (they agree unless log lines were lost). */
  totals: { iterations: number; requests: number; ok: number; ko: number };
  k6: { OK: number; KO: number; iterations: number };
  steps: StepStats[];
  timeline: TimeWindow[];
  memory: MemorySeries;
  stress?: StressVerdict;
  soak?: SoakVerdict;
  spike?: SpikeVerdict;
}

export interface SuiteRunInput {
  run: number;
  suite: Suite;
  schedule: ScheduledStep[];
  requests: RequestSample[];
  iterations: IterationSample[];
  samples: ResourceSample[];
  loadFromMs: number;
  k6: { OK: number; KO: number; iterations: number };
}

export function analyseSuiteRun(input: SuiteRunInput): SuiteRun {
  const { suite, schedule, requests, loadFromMs } = input;
  const endS = schedule.length ? schedule[schedule.length - 1].toS : 0;
  const pss = variantPss(input.samples);
  const steps = stepStats(schedule, requests, input.iterations);
  const ok = requests.filter((r) => r.outcome === 'ok').length;
  const out: SuiteRun = {
    schema: 'shellgrade.suite-run/1',
    run: input.run,
    kind: suite.kind,
    windowS: suite.windowS,
    loadFromMs,
    schedule,
    totals: { iterations: input.iterations.length, requests: requests.length, ok, ko: requests.length - ok },
    k6: input.k6,
    steps,
    timeline: timeline(requests, loadFromMs, 0, endS, suite.windowS),
    memory: memorySeries(pss, loadFromMs, 0, endS, suite.windowS),
  };
  if (suite.kind === 'stress') out.stress = stressVerdict(steps, suite);
  if (suite.kind === 'soak') {
    out.soak = soakVerdict({ requests, pss, loadFromMs, warmupS: suite.warmupS, endS, driftWindowS: suite.driftWindowS, ko: input.k6.KO, maxMemoryGrowth: suite.maxMemoryGrowth, maxP95Drift: suite.maxP95Drift });
  }
  if (suite.kind === 'spike') out.spike = spikeRecovery({ requests, loadFromMs, schedule, burstStep: suite.burstStep, windowS: suite.windowS, tolerance: suite.tolerance });
  return out;
}
