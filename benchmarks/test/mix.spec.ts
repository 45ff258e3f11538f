/** Paper 003's request mixes: the k6 schedule, the per-p figures and the comparison, on fabricated summaries. */
import { checkMix, mixScenarios, mixSchedule, mixThresholds, pickType } from '../../k6/lib/mix.js';
import { busiest, cpuCoresBetween, mixSteps, winners } from '../src/mix/analyse';
import { patternPlan, PATTERN_PLANS } from '../src/mix/patterns';
import { comparisonTable, variantTable } from '../src/mix/report';
import { loadProfiles, profileSchema } from '../src/profiles';
import type { ResourceSample } from '../src/resource-sampler';
import type { MixVariantResult } from '../src/mix/run-mix';
import { loadVariant } from '@shellgrade/variant';

const mix = { ps: [0, 0.5, 1], vus: 4, rampS: 1, holdS: 3 };

describe('the mix schedule (k6/lib/mix.js)', () => {
  it('runs one step per p(r1), same users each, one after the other with a drain gap', () => {
    expect(mixSchedule(mix, 2)).toEqual([
      { index: 0, vus: 4, p: 0, fromS: 0, holdFromS: 1, toS: 4 },
      { index: 1, vus: 4, p: 0.5, fromS: 6, holdFromS: 7, toS: 10 },
      { index: 2, vus: 4, p: 1, fromS: 12, holdFromS: 13, toS: 16 },
    ]);
    expect(Object.values(mixScenarios(mixSchedule(mix, 2), mix, 2)).map((s) => [s.startTime, s.tags.step])).toEqual([['0s', '0'], ['6s', '1'], ['12s', '2']]);
  });

  it('refuses a p outside [0, 1], no users or no hold window', () => {
    expect(() => checkMix({ ...mix, ps: [1.2] })).toThrow(/p\(r1\) in \[0, 1\]/);
    expect(() => checkMix({ ...mix, vus: 0 })).toThrow(/VUs/);
    expect(() => checkMix({ ...mix, holdS: 0 })).toThrow(/holdS/);
  });

  it('sends r1 with probability p', () => {
    expect([pickType(0, 0), pickType(1, 0.999), pickType(0.2, 0.19), pickType(0.2, 0.2)]).toEqual(['r2', 'r1', 'r1', 'r2']);
  });

  it('names in its thresholds the submetrics the runner reads, per step and type', () => {
    const names = Object.keys(mixThresholds(mixSchedule(mix, 2)));
    expect(names).toContain('mix_rt{step:2,phase:hold,type:r1}');
    expect(names).toContain('mix_ok{step:0,phase:hold,type:r2}');
    expect(names).toHaveLength(3 * 2 * 2);
  });
});

describe('mix profiles', () => {
  it('ship the paper protocol (six p values, 5 min each), a scaled default and a smoke run', () => {
    const all = loadProfiles();
    expect(all.mix?.mix).toMatchObject({ ps: [0, 0.2, 0.4, 0.6, 0.8, 1], holdS: 300 });
    expect(all['mix-scaled']?.mix?.ps).toHaveLength(6);
    expect(all['mix-smoke']?.mix).toBeDefined();
  });

  it('are not also a sweep', () => {
    const base = { runs: 1, betweenRunsS: 0, pauseS: 0, students: 2, thresholds: false };
    expect(() => profileSchema.parse({ ...base, mix, sweep: { vus: [1], rampS: 0, holdS: 1 } })).toThrow(/not several/);
  });
});

describe('per-p figures', () => {
  const schedule = mixSchedule({ ...mix, holdS: 10 }, 2);
  const metrics: Record<string, { values: Record<string, number> }> = {
    'mix_rt{step:0,phase:hold,type:r2}': { values: { count: 50, avg: 200, 'p(95)': 400 } },
    'mix_ok{step:0,phase:hold,type:r2}': { values: { rate: 0.98 } },
    'mix_rt{step:1,phase:hold,type:r1}': { values: { count: 40, avg: 20, 'p(95)': 30 } },
    'mix_ok{step:1,phase:hold,type:r1}': { values: { rate: 1 } },
    'mix_rt{step:1,phase:hold,type:r2}': { values: { count: 30, avg: 250, 'p(95)': 500 } },
    'mix_ok{step:1,phase:hold,type:r2}': { values: { rate: 1 } },
  };
  /** A process that used 0.5 core from t = 0, and one that used 1.5 cores in step 1 only. */
  const start = 1_000_000;
  const samples = Array.from({ length: 30 }, (_, t) => [
    { group: 'sg-exercise-0', epochMs: start + t * 1000, cpuS: 0.5 * t },
    { group: 'sg-gateway-0', epochMs: start + t * 1000, cpuS: t <= 8 ? 0 : 1.5 * (Math.min(t, 20) - 8) },
  ]).flat() as ResourceSample[];

  it('gives each type its throughput, mean, p95 and error share over the hold window, and nothing for a type not sent', () => {
    const rows = mixSteps(schedule, 10, metrics, samples, start);
    expect(rows[0]!.r1).toEqual({ count: 0, throughput: 0, meanMs: null, p95Ms: null, errorRate: null });
    expect(rows[0]!.r2).toMatchObject({ count: 50, throughput: 5, meanMs: 200, p95Ms: 400 });
    expect(rows[0]!.r2.errorRate).toBeCloseTo(0.02);
    expect(rows[1]!.throughput).toBe(7);
  });

  it('measures the cores each process used in the hold window', () => {
    // Step 1 holds from 14 s to 24 s after the start: the gateway used 1.5 cores until 20 s, then none.
    expect(cpuCoresBetween(samples, start + 14_000, start + 24_000)).toEqual({ 'sg-exercise-0': 0.5, 'sg-gateway-0': 0.9 });
    const rows = mixSteps(schedule, 10, metrics, samples, start);
    expect(busiest(rows[1]!)).toEqual({ group: 'sg-gateway-0', cores: 0.9 });
  });

  it('says per p which variant carried more, by how much', () => {
    const rows = mixSteps(schedule, 10, metrics, samples, start);
    const slower = rows.map((r) => ({ ...r, throughput: r.throughput / 2 }));
    expect(winners({ a: rows, b: slower }).map((w) => [w.p, w.best, w.ratio])).toEqual([[0, 'a', 2], [0.5, 'a', 2], [1, 'a', null]]);
  });

  it('writes one table per variant and the comparison', () => {
    const rows = mixSteps(schedule, 10, metrics, samples, start);
    const result = (variant: string, role: 'pattern' | 'baseline'): MixVariantResult => ({ schema: 'shellgrade.mix/1', variant, pattern: 'aggregation', role, profile: 'x', mix: { ...mix, gapS: 2 }, schedule, rows, k6ExitCode: 0, problems: [] });
    expect(variantTable(result('msa-aggregation-1-2', 'pattern'))).toContain('| 0.5 | 4.0 | 20.0 | 30.0 | 0.0 % | 3.0 | 250.0 | 500.0 | 0.0 % | 7.0 | 0.50 | 0.90 |');
    expect(comparisonTable([result('msa-aggregation-1-2', 'pattern'), result('msa-1-2', 'baseline')])).toContain('| 0.5 | 7.0 | 7.0 | 1.00× | msa-aggregation-1-2 | sg-gateway-0 0.90 | sg-gateway-0 0.90 |');
  });
});

describe('pattern plans', () => {
  it.each(Object.values(PATTERN_PLANS).filter((p) => p.pattern !== 'pipeline'))('$pattern: its variant and baseline are presets', (plan) => {
    for (const v of plan.variants) expect(loadVariant(v).name).toBe(v);
  });

  it('refuses an unknown pattern with the known ones', () => {
    expect(() => patternPlan('sidecar')).toThrow(/aggregation, offloading, pipeline/);
  });
});
