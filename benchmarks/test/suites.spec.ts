// The suites' pure functions (benchmarks/src/suites), with hand-computed expectations.
// Percentiles: simple-statistics quantileSorted, linear interpolation at rank (n − 1)·p (R and
// numpy type 7, as k6's p(95)).
import { analyseSuiteRun } from '../src/suites/analyse';
import { percentile, summarize } from '../src/suites/latency';
import { memorySeries, variantPss } from '../src/suites/memory';
import { calibratedSaturation, resolveSuite, soakRate } from '../src/suites/resolve';
import { makeRunId } from '../src/run-test';
import type { RequestSample } from '../src/suites/samples';
import { soakVerdict, type PssSample, type SoakInput } from '../src/suites/soak';
import { recoveredFrom, spikeRecovery } from '../src/suites/spike';
import { stepStats, type ScheduledStep, type StepStats } from '../src/suites/step-stats';
import { stressVerdict } from '../src/suites/stress';
import { timeline } from '../src/suites/timeline';
import { profileSchema } from '../src/profiles';
import type { ResourceSample } from '../src/resource-sampler';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const T0 = 1_700_000_000_000;
/** A request started `s` seconds after T0. */
const req = (s: number, ms: number, outcome: 'ok' | 'ko' = 'ok', step: number | null = 0, cause: string | null = outcome === 'ko' ? 'timeout' : null): RequestSample => ({ t: T0 + s * 1000, ms, type: 'verify', outcome, cause, step });

describe('latency summary', () => {
  it('percentiles of OK requests only: p50 of 10/20/30/40 is 25, p95 is 30 + 0.85 × 10', () => {
    const s = summarize([req(0, 40), req(0, 10), req(0, 30), req(0, 20), req(0, 99_000, 'ko')]);
    expect(s).toMatchObject({ requests: 5, ok: 4, ko: 1, koShare: 0.2, p50: 25, p95: 38.5, koCauses: { timeout: 1 } });
  });

  it('p95 of 1..20 lies at rank 18.05: 19.05; nothing to rank gives null', () => {
    expect(percentile(Array.from({ length: 20 }, (_, i) => i + 1), 0.95)).toBeCloseTo(19.05, 12);
    expect(summarize([req(0, 5, 'ko')])).toMatchObject({ ok: 0, p50: null, p95: null, koShare: 1 });
    expect(summarize([])).toMatchObject({ requests: 0, koShare: null });
  });
});

describe('timeline', () => {
  it('windows by request start, the last one cut at the end; OK/s per window', () => {
    const w = timeline([req(0, 100), req(1.9, 300), req(2, 50, 'ko'), req(4.5, 70), req(5, 1)], T0, 0, 5, 2);
    expect(w.map((x) => [x.fromS, x.toS, x.requests, x.ok, x.p95])).toEqual([
      [0, 2, 2, 2, 290], // 100 + 0.95 × 200
      [2, 4, 1, 0, null],
      [4, 5, 1, 1, 70], // the request at 5 s is after the end
    ]);
    expect(w[0].okPerS).toBe(1);
    expect(w[2].okPerS).toBe(1);
  });

  it('refuses a zero window', () => {
    expect(() => timeline([], T0, 0, 5, 0)).toThrow(/windowS/);
  });
});

const schedule: ScheduledStep[] = [
  { index: 0, rate: 2, fromS: 0, holdFromS: 0, toS: 10 },
  { index: 1, rate: 4, fromS: 10, holdFromS: 12, toS: 20 },
];

describe('per-step stats', () => {
  it('counts each request in its iteration\'s step: N = 10 × iterations, OK/N, OK/s over the step', () => {
    const its = [{ t: T0, step: 0 }, { t: T0 + 1000, step: 0 }, { t: T0 + 11_000, step: 1 }];
    const reqs = [req(0, 10), req(1, 20), req(9, 30, 'ok', 0), req(11, 40, 'ok', 1), req(25, 500, 'ko', 1, 'gateway_5xx')];
    const [s0, s1] = stepStats(schedule, reqs, its);
    expect(s0).toMatchObject({ index: 0, rate: 2, iterations: 2, N: 20, ok: 3, ko: 0, okShare: 0.15, okPerS: 0.3, p50: 20, p95: 29 });
    // A request after the schedule's end still counts in its iteration's step.
    expect(s1).toMatchObject({ index: 1, iterations: 1, N: 10, ok: 1, ko: 1, koShare: 0.5, okShare: 0.1, okPerS: 0.1, koCauses: { gateway_5xx: 1 } });
  });

  it('counts the SPS answered OK per step against its iterations (one SPS each)', () => {
    const its = [{ t: T0, step: 0 }, { t: T0 + 1000, step: 0 }, { t: T0 + 11_000, step: 1 }];
    const sps = (s: number, outcome: 'ok' | 'ko', step: number): RequestSample => ({ ...req(s, 100, outcome, step), type: 'sps' });
    const [s0, s1] = stepStats(schedule, [sps(1, 'ok', 0), sps(2, 'ko', 0), req(3, 10), sps(12, 'ko', 1)], its);
    expect(s0).toMatchObject({ spsOk: 1, spsOkShare: 0.5 });
    expect(s1).toMatchObject({ spsOk: 0, spsOkShare: 0 });
  });
});

const step = (index: number, rate: number, o: Partial<StepStats>): StepStats => ({
  index, rate, fromS: 0, toS: 10, iterations: 10, N: 100, requests: 100, ok: 100, ko: 0, koShare: 0, okShare: 1, okPerS: 10, p50: 100, p95: 200, koCauses: {}, ...o,
});
const SLO = { sloKoShare: 0.01, sloP95Ms: 10_000, brokenOkShare: 0.1 };

describe('stress verdict', () => {
  it('knee = last step meeting KO ≤ 1 % and p95 ≤ 10 s; breaking point = first step with OK/N ≤ 10 %', () => {
    const v = stressVerdict([
      step(0, 2, {}),
      step(1, 4, { koShare: 0.01, p95: 10_000 }), // both limits are inclusive
      step(2, 8, { koShare: 0.02 }),
      step(3, 16, { okShare: 0.11, koShare: 0.8 }),
      step(4, 32, { okShare: 0.1, koShare: 0.9 }),
    ], SLO);
    expect(v.knee).toEqual({ index: 1, rate: 4 });
    expect(v.breakingPoint).toEqual({ index: 4, rate: 32 });
    expect(v.steps.map((s) => [s.meetsSlo, s.broken])).toEqual([[true, false], [true, false], [false, false], [false, false], [false, true]]);
  });

  it('grading breaking point = first step where ≤ 10 % of the iterations had their SPS answered, while the other requests may still pass', () => {
    const v = stressVerdict([
      step(0, 2, { spsOk: 10, spsOkShare: 1 }),
      step(1, 8, { spsOk: 2, spsOkShare: 0.2, okShare: 0.92 }),
      step(2, 16, { spsOk: 1, spsOkShare: 0.1, okShare: 0.9 }),
    ], SLO);
    expect(v.breakingPoint).toBeNull();
    expect(v.gradingBreakingPoint).toEqual({ index: 2, rate: 16 });
    expect(v.steps.map((s) => s.gradingBroken)).toEqual([false, false, true]);
  });

  it('a p95 over 10 s misses the SLO; a later step back under it does not move the knee', () => {
    const v = stressVerdict([step(0, 2, {}), step(1, 4, { p95: 10_001 }), step(2, 8, {})], SLO);
    expect(v.knee).toEqual({ index: 0, rate: 2 });
    expect(v.breakingPoint).toBeNull();
  });

  it('no knee when the first step misses the SLO; a step without any OK has no p95 and misses it', () => {
    const v = stressVerdict([step(0, 2, { ok: 0, ko: 100, koShare: 1, okShare: 0, p95: null, p50: null })], SLO);
    expect(v.knee).toBeNull();
    expect(v.breakingPoint).toEqual({ index: 0, rate: 2 });
  });
});

describe('soak verdict', () => {
  // Warm-up 10 s, end 60 s: drift windows are the first and last fifth of [10, 60): [10, 20) and [50, 60).
  const pss = (group: string, first: number, last: number): PssSample[] => [
    { group, epochMs: T0 + 5_000, pssBytes: 1 }, // warm-up: ignored
    { group, epochMs: T0 + 12_000, pssBytes: first - 10 },
    { group, epochMs: T0 + 18_000, pssBytes: first + 10 },
    { group, epochMs: T0 + 30_000, pssBytes: 5 * first }, // middle: ignored
    { group, epochMs: T0 + 55_000, pssBytes: last },
  ];
  const base = (o: Partial<SoakInput>): SoakInput => ({
    requests: [req(11, 200), req(15, 200), req(52, 210), req(58, 210)],
    pss: [...pss('sg-monolith-0', 1000, 1100), ...pss('sg-haproxy', 500, 500)],
    loadFromMs: T0,
    warmupS: 10,
    endS: 60,
    ko: 0,
    maxMemoryGrowth: 0.1,
    maxP95Drift: 0.1,
    ...o,
  });

  it('passes at exactly +10 % PSS and +5 % p95 with no KO', () => {
    const v = soakVerdict(base({}));
    expect(v.firstWindowS).toEqual([10, 20]);
    expect(v.lastWindowS).toEqual([50, 60]);
    expect(v.memory.find((m) => m.group === 'sg-monolith-0')).toMatchObject({ firstBytes: 1000, lastBytes: 1100, pass: true });
    expect(v.memory.find((m) => m.group === 'sg-monolith-0')!.growth).toBeCloseTo(0.1, 12);
    expect(v.p95).toMatchObject({ firstMs: 200, lastMs: 210, pass: true });
    expect(v.p95.drift).toBeCloseTo(0.05, 12);
    expect(v).toMatchObject({ pass: true, failures: [] });
  });

  it('fails on one process growing more than 10 %', () => {
    const v = soakVerdict(base({ pss: [...pss('sg-monolith-0', 1000, 1101), ...pss('sg-haproxy', 500, 500)] }));
    expect(v.pass).toBe(false);
    expect(v.failures).toEqual(['sg-monolith-0: PSS +10.1% > 10.0%']);
  });

  it('fails on a p95 drift over 10 % (first 200 ms, last 230 ms)', () => {
    const v = soakVerdict(base({ requests: [req(11, 200), req(15, 200), req(52, 230), req(58, 230)] }));
    expect(v.p95.drift).toBeCloseTo(0.15, 12);
    expect(v.failures).toEqual(['p95 drift 15.0% > 10.0%']);
  });

  it('fails on a single KO', () => {
    expect(soakVerdict(base({ ko: 1 })).failures).toEqual(['1 KO (0 allowed)']);
  });

  it('fails when a window has no data, and honours an explicit drift window', () => {
    expect(soakVerdict(base({ pss: [] })).failures).toEqual(['no PSS sample of a variant process']);
    const v = soakVerdict(base({ driftWindowS: 5 }));
    expect(v.firstWindowS).toEqual([10, 15]);
    expect(v.lastWindowS).toEqual([55, 60]);
    // [10, 15) holds the 11 s request only, [55, 60) the 58 s one.
    expect(v.p95).toMatchObject({ firstMs: 200, lastMs: 210, pass: true });
    expect(v.memory.find((m) => m.group === 'sg-monolith-0')).toMatchObject({ firstBytes: 990, lastBytes: 1100 });
  });
});

describe('spike recovery', () => {
  // Baseline [0, 10), burst [10, 15) (transition included), baseline again [15, 35); 5 s windows from 15 s.
  const spikeSchedule: ScheduledStep[] = [
    { index: 0, rate: 2, fromS: 0, holdFromS: 0, toS: 10 },
    { index: 1, rate: 10, fromS: 10, holdFromS: 11, toS: 15 },
    { index: 2, rate: 2, fromS: 15, holdFromS: 16, toS: 35 },
  ];
  const pre = [req(1, 100), req(5, 100)]; // pre-spike p95 = 100 ms, bound +10 % = 110 ms
  const input = (after: RequestSample[]) => ({ requests: [...pre, req(12, 5000), ...after], loadFromMs: T0, schedule: spikeSchedule, burstStep: 1, windowS: 5, tolerance: 0.1 });

  it('recovery = start of the first window of the recovered tail − end of the burst', () => {
    const v = spikeRecovery(input([req(16, 900), req(21, 300), req(26, 110), req(31, 100)]));
    expect(v).toMatchObject({ preP95Ms: 100, burstEndS: 15, baselineRate: 2, burstRate: 10, recovered: true, recoveryS: 10 });
    expect(v.boundMs).toBeCloseTo(110, 9);
  });

  it('a window back under the bound that relapses does not count; empty windows are no evidence', () => {
    // [15, 20) back under, [20, 25) relapses, [25, 30) empty, [30, 35) under: the tail starts at 30 s.
    const v = spikeRecovery(input([req(16, 100), req(21, 400), req(31, 105)]));
    expect(v.recoveryS).toBe(15);
  });

  it('never recovered when the last window is above the bound, or has more than 1 % KO', () => {
    expect(spikeRecovery(input([req(16, 100), req(31, 111)]))).toMatchObject({ recovered: false, recoveryS: null });
    expect(spikeRecovery(input([req(16, 100), req(31, 100), req(32, 20_000, 'ko')]))).toMatchObject({ recovered: false, recoveryS: null });
  });

  it('recovered at once (0 s) when the first window after the burst is within the bound', () => {
    expect(spikeRecovery(input([req(16, 100), req(31, 100)])).recoveryS).toBe(0);
  });

  it('recoveredFrom on no windows with requests: null; a burst without baseline step is refused', () => {
    expect(recoveredFrom([], 100)).toBeNull();
    expect(() => spikeRecovery({ ...input([]), burstStep: 0 })).toThrow(/baseline/);
  });
});

describe('memory over time', () => {
  it('keeps the variant processes (not servers, k6 or the machine), mean PSS per window', () => {
    const s = (group: string, role: string, tS: number, pssBytes: number): ResourceSample =>
      ({ run: 1, tS, epochMs: T0 + tS * 1000, group, role, pids: 1, cpuPct: 0, cpuS: 0, rssBytes: 0, pssBytes, cpuSource: 'proc' }) as ResourceSample;
    const pss = variantPss([s('sg-monolith-0', 'monolith', 0, 10), s('sg-monolith-0', 'monolith', 1, 20), s('sg-monolith-0', 'monolith', 2.5, 60), s('postgres', 'server', 0, 999), s('k6', 'load', 0, 999), s('machine', 'machine', 0, 999)]);
    expect(pss.map((p) => p.group)).toEqual(['sg-monolith-0', 'sg-monolith-0', 'sg-monolith-0']);
    expect(memorySeries(pss, T0, 0, 5, 2)).toEqual({ t: [0, 2, 4], groups: [{ name: 'sg-monolith-0', bytes: [15, 60, null] }] });
  });
});

describe('suite profiles', () => {
  const common = { runs: 1, betweenRunsS: 0, pauseS: 1, students: 10, thresholds: false };

  it('derives peak, rampS and holdS from the steps (transitions between steps counted)', () => {
    const p = profileSchema.parse({ ...common, suite: { kind: 'stress', transitionS: 5, steps: [{ rate: 2, holdS: 60 }, { rate: 8, holdS: 60 }, { rate: 4, holdS: 30 }] } });
    expect([p.peak, p.rampS, p.holdS]).toEqual([8, 0, 160]);
    expect(p.suite).toMatchObject({ sloKoShare: 0.01, sloP95Ms: 10_000, brokenOkShare: 0.1 });
  });

  it('refuses a stepless load suite, a spike without a step after its burst, a plain profile without peak', () => {
    expect(() => profileSchema.parse({ ...common, suite: { kind: 'load' } })).toThrow(/needs steps/);
    expect(() => profileSchema.parse({ ...common, suite: { kind: 'spike', steps: [{ rate: 1, holdS: 5 }, { rate: 5, holdS: 5 }] } })).toThrow(/baseline step after/);
    expect(() => profileSchema.parse({ ...common, rampS: 1, holdS: 1 })).toThrow(/peak/);
  });

  it('soak rate: --peak as is, else 70 % of --saturation, else of the calibration, rounded to a whole rate ≥ 1', () => {
    expect(soakRate(0.7, { variant: 'v', peak: 3.4 }, { rate: 100 })).toBe(3);
    expect(soakRate(0.7, { variant: 'v', saturation: 9 }, { rate: 100 })).toBe(6); // 6.3
    expect(soakRate(0.7, { variant: 'v' }, { rate: 5 })).toBe(4); // 3.5 rounds up
    expect(soakRate(0.7, { variant: 'v', saturation: 1 }, null)).toBe(1);
    expect(() => soakRate(0.7, { variant: 'v' }, null)).toThrow(/--saturation/);
  });

  it('resolves a soak to one step of soakS (or --hold-s), and scales step rates by --peak', () => {
    const soak = profileSchema.parse({ ...common, suite: { kind: 'soak', soakS: 300, warmupS: 30 } });
    expect(soak.peak).toBe(0);
    const r = resolveSuite(soak, { variant: 'v', saturation: 10 }, null);
    expect(r.suite!.steps).toEqual([{ rate: 7, holdS: 300 }]);
    expect([r.peak, r.holdS]).toEqual([7, 300]);
    expect(resolveSuite(soak, { variant: 'v', saturation: 10, holdS: 60 }, null).suite!.steps).toEqual([{ rate: 7, holdS: 60 }]);
    const spike = profileSchema.parse({ ...common, suite: { kind: 'spike', transitionS: 1, steps: [{ rate: 2, holdS: 60 }, { rate: 10, holdS: 30 }, { rate: 2, holdS: 120 }] } });
    const scaled = resolveSuite(spike, { variant: 'v', peak: 3 }, null);
    expect(scaled.suite!.steps!.map((s) => s.rate)).toEqual([3, 15, 3]);
    expect([scaled.peak, scaled.holdS]).toEqual([15, 212]);
  });

  it('reads the newest calibration of exactly this variant', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-cal-'));
    writeFileSync(join(dir, '20261101T000000Z-mon-x2-calibration.json'), JSON.stringify({ recommendedPeak: 5 }));
    writeFileSync(join(dir, '20261122T032534Z-mon-x2-calibration.json'), JSON.stringify({ recommendedPeak: 9 }));
    writeFileSync(join(dir, '20261123T000000Z-naked-mon-x2-calibration.json'), JSON.stringify({ recommendedPeak: 1 }));
    // a cheap-login calibration (bench calibrate --kdf-cost 1) is never a soak's saturation
    const cheap = `${makeRunId('mon-x2', 'calibration', undefined, new Date('2026-11-24T00:00:00Z'), 1)}.json`;
    expect(cheap).toBe('20261124T000000Z-mon-x2-calibration-kdf1.json');
    writeFileSync(join(dir, cheap), JSON.stringify({ recommendedPeak: 30 }));
    expect(calibratedSaturation(dir, 'mon-x2')).toEqual({ rate: 9, file: '20261122T032534Z-mon-x2-calibration.json' });
    expect(calibratedSaturation(dir, 'msa-1-2')).toBeNull();
  });
});

describe('analyseSuiteRun', () => {
  it('a stress run: steps add up to the request lines, the verdict is attached, other verdicts are not', () => {
    const suite = profileSchema.parse({ runs: 1, betweenRunsS: 0, pauseS: 1, students: 10, thresholds: false, suite: { kind: 'stress', transitionS: 2, windowS: 5, steps: [{ rate: 1, holdS: 8 }, { rate: 2, holdS: 8 }] } }).suite!;
    const sched: ScheduledStep[] = [{ index: 0, rate: 1, fromS: 0, holdFromS: 0, toS: 8 }, { index: 1, rate: 2, fromS: 8, holdFromS: 10, toS: 18 }];
    const r = analyseSuiteRun({
      run: 1, suite, schedule: sched, loadFromMs: T0, samples: [],
      requests: [req(1, 10), req(9, 20, 'ok', 1), req(10, 30, 'ko', 1)],
      iterations: [{ t: T0 + 1000, step: 0 }, { t: T0 + 9000, step: 1 }],
      k6: { OK: 2, KO: 1, iterations: 2 },
    });
    expect(r.totals).toEqual({ iterations: 2, requests: 3, ok: 2, ko: 1 });
    expect(r.steps.map((s) => [s.ok, s.ko])).toEqual([[1, 0], [1, 1]]);
    expect(r.timeline.map((w) => [w.fromS, w.toS])).toEqual([[0, 5], [5, 10], [10, 15], [15, 18]]);
    expect(r.stress!.knee).toEqual({ index: 0, rate: 1 });
    expect(r.soak).toBeUndefined();
    expect(r.spike).toBeUndefined();
  });
});
