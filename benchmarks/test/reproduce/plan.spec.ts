import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredConfigurations, paperCoverage } from '../../src/reproduce/configurations';
import { PAPER_000_CONFIGURATIONS } from '../../src/reproduce/paper-000';
import { MIN_RUNS, overPlanBudget, reproducePlan, reproducePlanText } from '../../src/reproduce/plan';
import { BRING_UP_S } from '../../src/findings/pricing';

const capacity = { rate: 8, source: '20261127T000000Z-naked-mon-calibration.json' };

describe('paper 000 as data', () => {
  it("Table I's figures are the PDF's (fixtures/paper-000-table-1.tsv, as printed)", () => {
    const tsv = readFileSync(join(__dirname, '..', 'fixtures', 'paper-000-table-1.tsv'), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
    const labels = ['Naked MON', 'MON×1', 'MON×4', 'MON×8', 'MON×12', 'MSA-1-1'];
    const row = (name: string) => tsv.find((r) => r[0].startsWith(name))!.slice(1).map((c) => Number(c.replace('%', '')) / 100);
    const figures = labels.map((l) => PAPER_000_CONFIGURATIONS.find((c) => c.label === l)!.figures);
    expect(figures.map((f) => f.rac)).toEqual(row('Request Acceptance').map((x) => expect.closeTo(x, 6)));
    expect(figures.map((f) => f.fr)).toEqual(row('Failure Rate').map((x) => expect.closeTo(x, 6)));
    expect(figures.map((f) => f.efr)).toEqual(row('Effective Failure Rate').map((x) => expect.closeTo(x, 6)));
    expect(figures.map((f) => f.spsEfr)).toEqual(row('EFR (Req-SPS)').map((x) => expect.closeTo(x, 6)));
  });

  it('every published EFR is 1 − RAC·(1 − FR) where FR is printed, and the response-time bands add to 100 %', () => {
    for (const c of PAPER_000_CONFIGURATIONS) {
      const f = c.figures;
      if (f.fr !== null) expect(Math.abs(1 - f.rac * (1 - f.fr) - f.efr)).toBeLessThan(0.0006);
      expect(Math.abs(f.lt800 + f.b800_1200 + f.ge1200 - 1)).toBeLessThan(0.0003);
    }
  });
});

describe('reproduce 000: the plan (printed by --dry-run, nothing run)', () => {
  it("covers all 15 configurations of Tables I–II with the presets that declare them (MON×2 is not in the tables; dev and msa-2-2-2 only inherit a paper field)", () => {
    const declared = declaredConfigurations();
    expect(declared.get('dev')).toBeUndefined();
    expect(declared.get('msa-2-2-2')).toBeUndefined();
    const c = paperCoverage(declared);
    expect(c.missing).toEqual([]);
    expect(c.covered.map((x) => `${x.label}=${x.variant}`)).toEqual([
      'Naked MON=naked-mon', 'MON×1=mon-x1', 'MON×4=mon-x4', 'MON×8=mon-x8', 'MON×12=mon-x12', 'MSA-1-1=msa-1-1',
      'MSA-1-2=msa-1-2', 'MSA-2-2=msa-2-2', 'MSA-1-4=msa-1-4', 'MSA-4-4=msa-4-4', 'MSA-1-8=msa-1-8', 'MSA-8-8=msa-8-8', 'MSA-1-12=msa-1-12', 'MSA-12-12=msa-12-12', 'MSA-2-4-4=msa-2-4-4',
    ]);
  });

  it('at least 3 runs a configuration, one load for all, and the wall time from the run prices', () => {
    expect(() => reproducePlan({ runs: 2, capacity })).toThrow('at least 3 runs a configuration');
    const p = reproducePlan({ capacity, seed: 7, paperStart: { multiple: 16, source: 'test' } });
    expect(p.runs).toBe(MIN_RUNS);
    const e = p.estimate;
    const failing = p.configurations.filter((c) => c.figures.efr > 0).length;
    expect(failing).toBe(6);
    expect(e.roundS).toBe(15 * BRING_UP_S + failing * e.overloadedS + (15 - failing) * e.keepsUpS);
    expect(e.expectedMin).toBe(Math.ceil((e.searchS + 3 * e.roundS) / 60));
    expect(e.worstMin).toBeGreaterThan(e.expectedMin);
    expect(overPlanBudget(p)).toBeNull();
    expect(overPlanBudget(reproducePlan({ capacity, budgetMin: 60 }))).toMatch(/over its 60 min budget: raise --budget-min, or run fewer configurations \(--only\)/);
  });

  it('--only and --multiple narrow the plan; an unknown configuration is refused with the known ones', () => {
    const p = reproducePlan({ capacity, only: ['Naked MON', 'msa-2-4-4'], multipleGiven: true, paperStart: { multiple: 12, source: '--multiple' } });
    expect(p.configurations.map((c) => c.variant)).toEqual(['naked-mon', 'msa-2-4-4']);
    expect(p.estimate.searchS).toBe(0);
    expect(() => reproducePlan({ only: ['MON×3'] })).toThrow(/--only: mon×3 is no configuration of Tables I–II with a preset \(known: Naked MON = naked-mon/);
  });

  it('the dry-run text: configurations, load, every round in the seeded order, planned time and budget', () => {
    const text = reproducePlanText(reproducePlan({ capacity, seed: 7, testbed: 'scaled', paperStart: { multiple: 16, source: 'test' } }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('reproduce 000: 15 configurations of Tables I–II × 3 runs = 45 runs; testbed scaled; profile small, ramp 10 s + hold 30 s, client timeout 60 s; seed 7');
    expect(text).toContain("load: every configuration at the paper-equivalent load, naked-mon's EFR → 61.5 % (Table I), searched from 16× (test) in ≤ 5 runs");
    expect(text).toMatch(/planned wall time: \d+ min \([\d.]+ min a round: .*\), ≤ \d+ min if every run is overloaded; budget 300 min/);
    expect(text).toContain('1. Naked MON = naked-mon (Table I; EFR 61.50 %, Apdex 0.56)');
    expect(text).toContain('7. MSA-1-2 = msa-1-2 (Table II; EFR 10.72 %, Apdex not printed)');
    const rounds = lines.filter((l) => l.startsWith('round '));
    expect(rounds).toHaveLength(3);
    for (const r of rounds) expect(new Set(r.replace(/^round \d+: /, '').split(' → ')).size).toBe(15);
    expect(reproducePlanText(reproducePlan({ capacity, seed: 7, testbed: 'scaled', paperStart: { multiple: 16, source: 'test' } }))).toBe(text);
  });
});

describe('reproduce 000 --smoke: the runner end to end at the shortest shape', () => {
  it('the smoke profile, a 10 s client timeout, one search probe, any number of runs (default 1); the dry-run says it decides nothing and prints the budget', () => {
    const p = reproducePlan({ mode: 'smoke', capacity, seed: 7, only: ['naked-mon', 'msa-1-1'], multipleGiven: true, paperStart: { multiple: 2, source: '--multiple' } });
    expect(p.runs).toBe(1);
    expect(p.protocol).toEqual({ profile: 'smoke', rampS: 2, holdS: 3, pauseS: 0, timeoutS: 10, paperProbes: 0 });
    expect(reproducePlan({ mode: 'smoke', capacity, runs: 2 }).runs).toBe(2);
    expect(reproducePlan({ mode: 'smoke', capacity }).protocol.paperProbes).toBe(1);
    const text = reproducePlanText(p);
    expect(text.split('\n')[0]).toBe('reproduce 000 (smoke: the runner end to end, deciding nothing): 2 configurations of Tables I–II × 1 runs = 2 runs; testbed unscaled; profile smoke, ramp 2 s + hold 3 s, client timeout 10 s; seed 7');
    expect(text).toMatch(/planned wall time: \d+ min .*; budget 300 min/);
    expect(text.split('\n').filter((l) => l.startsWith('round '))).toHaveLength(1);
    // The full protocol keeps its minimum.
    expect(() => reproducePlan({ capacity, runs: 1 })).toThrow('at least 3 runs a configuration');
  });
});
