import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVariant } from '@shellgrade/variant';
import { CLAIMS } from '../../src/findings/claims';
import { OVERLOAD_LEVELS } from '../../src/findings/loads';
import { detectableSigmas, estimate, findingsPlan, MSA_ASYNC, needsCapacity, NOMINAL_CAPACITY, planText, PROTOCOLS, scaledCalibrationPeaks } from '../../src/findings/plan';
import { BRING_UP_S, calibrationPriceS } from '../../src/findings/pricing';
import { writeDerivedSpec } from '../../src/findings/run';

const capacity = { rate: 8, source: '20261127T000000Z-naked-mon-calibration.json' };

describe('findings plan (printable with --dry-run, nothing run)', () => {
  it('--quick: the 2 × 2 and MON × 2 at the paper-equivalent load, a 20 s client timeout, within 30 min from a fresh clone', () => {
    for (const cap of [capacity, null]) {
      const p = findingsPlan('quick', { seed: 7, capacity: cap });
      expect([...new Set(p.cells.map((c) => c.variant))]).toEqual(['naked-mon', 'naked-mon-async', 'msa-1-1', 'msa-1-1-async', 'mon-x2']);
      expect(p.cells.map((c) => c.level)).toEqual(['paper', 'paper', 'paper', 'paper', 'paper']);
      expect(p.protocol.timeoutS).toBe(20);
      expect(p.paperStart.multiple).toBe(10);
      // Every level is searched: no calibration on a machine without one, so the fresh clone's plan is the same.
      expect(p.estimate.calibrationS).toBe(0);
      expect(p.estimate.totalMin).toBeLessThanOrEqual(30);
      expect(p.notRun).toEqual(expect.arrayContaining(['msa-gateway-replicated@paper', 'msa-replicated@paper', 'mon-replicated@1x', 'mon-blocking@0.5x']));
    }
    expect(needsCapacity(PROTOCOLS.quick)).toBe(false);
    expect(needsCapacity(PROTOCOLS.full)).toBe(true);
  });

  it('--quick covers a scaling claim: (ii) has both its cells, and the plan says which testbed tests it', () => {
    const p = findingsPlan('quick', { seed: 7, capacity: null });
    const roles = new Set(p.cells.flatMap((c) => c.roles));
    const covered = CLAIMS.filter((c) => c.scaling && c.tests.every((t) => roles.has(t.a) && roles.has(t.b) && p.protocol.levels.includes(t.level)));
    expect(covered.map((c) => c.id)).toEqual(['ii']);
    expect(planText(p)).toContain('testbed: unscaled: the scaling claims (ii)');
    expect(planText(findingsPlan('quick', { seed: 7, capacity: null, testbed: 'scaled' }))).toContain('testbed: scaled (scale model: every container one paper CPU × s of CFS quota): the scaling claims (ii) are measured in it');
  });

  it('states its power: with n runs a side, the difference (in run-to-run SDs) found 80 % of the time, (t₀.₉₇₅ + t₀.₈₀)·√(2/n) at df 2n − 2', () => {
    // t tables: df 2: t.975 = 4.303, t.80 = 1.061; df 4: 2.776, 0.941.
    expect(detectableSigmas(2)).toBeCloseTo((4.3027 + 1.0607) * 1, 3);
    expect(detectableSigmas(3)).toBeCloseTo((2.7764 + 0.9410) * Math.sqrt(2 / 3), 3);
    expect(planText(findingsPlan('quick', { seed: 7, capacity }))).toContain('power: with 2 runs a side a difference of 5.4 run-to-run SDs is found 80 % of the time');
  });

  it('full: every role at every level a claim names, 3–6 adaptive runs, within 3 h', () => {
    const p = findingsPlan('full', { seed: 7, capacity });
    expect(p.notRun).toEqual([]);
    expect(p.protocol.stopping).toEqual({ minRuns: 3, maxRuns: 6, precision: 0.1 });
    expect(p.cells.map((c) => `${c.variant}@${c.level}`)).toEqual(expect.arrayContaining(['msa-1-4@1.5x', 'msa-2-2-2@paper', 'naked-mon@0.5x', 'msa-1-2@paper', 'mon-x2@1x', 'naked-mon@paper', 'naked-mon-async@paper', 'msa-1-1-async@paper']));
    // The minimum fits the budget at the paper multiple found on this machine (16×); rounds past it run only while they fit.
    const found = findingsPlan('full', { seed: 7, capacity, paperStart: { multiple: 16, source: 'test' } });
    expect(found.estimate.minimumMin).toBeLessThanOrEqual(180);
    expect(found.estimate.minimumMin).toBeGreaterThan(90);
    expect(found.estimate.totalMin).toBeGreaterThan(180);
  });

  it('availability (EFR) and performance (Apdex) parts are judged as the paper judged them, at the paper-equivalent load; ceilings at 1.5×; resources below capacity', () => {
    const parts = CLAIMS.flatMap((c) => c.tests);
    const differences = parts.filter((t) => t.expect !== 'same');
    expect(differences.filter((t) => t.metric === 'efr' || t.metric === 'apdex').every((t) => OVERLOAD_LEVELS.includes(t.level) && t.level === 'paper')).toBe(true);
    expect(parts.some((t) => t.metric === 'p95')).toBe(false);
    expect(parts.filter((t) => t.expect === 'same').every((t) => t.level === '1.5x' && t.metric === 'apdex')).toBe(true);
    expect(parts.filter((t) => ['cpuPerIteration', 'memMiB', 'energyWh'].includes(t.metric)).every((t) => t.level === '0.5x' || t.level === '1x')).toBe(true);
  });

  it('estimates search + rounds of a bring-up per variant and a run per cell, each run priced at its level', () => {
    const pr = PROTOCOLS.full;
    const cells = [{ variant: 'a', level: '0.5x' as const }, { variant: 'a', level: 'paper' as const }, { variant: 'b', level: 'paper' as const }];
    const e = estimate(pr, cells, 8, 16);
    expect(e.runS['paper']).toBeGreaterThan(e.runS['0.5x']!);
    expect(e.roundS).toBe(2 * BRING_UP_S + e.runS['0.5x']! + 2 * e.runS['paper']!);
    expect(e.searchS).toBe(BRING_UP_S + 5 * e.runS['paper']!);
    expect(e.calibrationS).toBe(0);
    expect(e.minimumMin).toBe(Math.ceil((e.searchS + 3 * e.roundS) / 60));
    expect(e.totalMin).toBe(Math.ceil((e.searchS + 6 * e.roundS) / 60));
  });

  it('a machine without a calibration (a fresh one): the plan calibrates naked-mon first, priced into the minimum, and a full run still fits 3 h', () => {
    const fresh = findingsPlan('full', { seed: 7, capacity: null, paperStart: { multiple: 16, source: 'test' } });
    const known = findingsPlan('full', { seed: 7, capacity, paperStart: { multiple: 16, source: 'test' } });
    expect(known.estimate.calibrationS).toBe(0);
    expect(fresh.estimate.calibrationS).toBe(calibrationPriceS(5));
    expect(fresh.estimate.minimumMin).toBe(Math.ceil((fresh.estimate.calibrationS + fresh.estimate.searchS + 3 * fresh.estimate.roundS) / 60));
    expect(fresh.estimate.minimumMin).toBeLessThanOrEqual(180);
    const text = planText(fresh);
    expect(text).toContain('the run calibrates it first (steps 4, 8, 12, 16 it/s until one fails, then bisected to an eighth of the first failing rate, at most 1 it/s;');
    expect(text).toContain(`estimated duration: calibration ≤ ${(fresh.estimate.calibrationS / 60).toFixed(1)} min + search`);
  });

  it("in the scale model the calibration climbs the monolith's share of the unscaled steps, and is priced at them", () => {
    const model = { s: 1 / 9, sutCpus: 1 };
    expect(scaledCalibrationPeaks(model)).toEqual([0.4, 0.9, 1.3, 1.8]);
    expect(scaledCalibrationPeaks({ s: 0.2, sutCpus: 2 })).toEqual([0.4, 0.8, 1.2, 1.6]);
    const scaled = findingsPlan('full', { seed: 7, capacity: null, testbed: 'scaled', calibrationPeaks: scaledCalibrationPeaks(model), paperStart: { multiple: 16, source: 'test' } });
    expect(scaled.calibrationPeaks).toEqual([0.4, 0.9, 1.3, 1.8]);
    expect(scaled.estimate.calibrationS).toBe(calibrationPriceS(5, [0.4, 0.9, 1.3, 1.8]));
    expect(planText(scaled)).toContain('the run calibrates it first (steps 0.4, 0.9, 1.3, 1.8 it/s until one fails');
    // A plan with a capacity climbs nothing.
    expect(findingsPlan('full', { seed: 7, capacity, calibrationPeaks: [1] }).calibrationPeaks).toBeUndefined();
  });

  it('--dry-run prints the capacity, each level in it/s, every cell, every round in the seeded order and the duration', () => {
    const text = planText(findingsPlan('quick', { seed: 7, capacity }));
    expect(text.split('\n')[0]).toBe('findings (quick): 5 cells (variant × load) over 5 variants; profile small, ramp 5 s + hold 15 s, 0 s apart; seed 7');
    expect(text).toContain('capacity: naked-mon sustains 8 it/s (SPS p95 ≤ 2 s, 0 KO; 20261127T000000Z-naked-mon-calibration.json); levels paper = searched');
    expect(text).toContain('searched from 10× (interpolated between 6× (EFR 10.2 %) and 12× (88.1 %), probed with a 20 s timeout on a machine of this kind, 2026-11-27; double, halve, then bisect) in at most 2 runs; client timeout 20 s');
    expect(text).toMatch(/estimated duration: search ≤ [\d.]+ min \+ [\d.]+ min a round \(a run at paper \(10×\) ≤ \d+ s; 15 s a bring-up\) = \d+ min for the minimum of 2 rounds \(budget 30 min: a round past the minimum starts only if it fits at the pace measured\)/);
    expect(text).toContain('4. msa-1-1-async (= msa-1-1 with {"grader":{"exec":"async"}}) @ paper (searched)');
    const rounds = text.split('\n').filter((l) => l.startsWith('round '));
    expect(rounds).toHaveLength(2);
    for (const r of rounds) expect(r.split(' → ')).toHaveLength(5);
    expect(planText(findingsPlan('quick', { seed: 7, capacity }))).toBe(text);
    expect(planText(findingsPlan('quick', { capacity: null, seed: 7 }))).toContain('capacity: none needed (every level is searched); multiples counted in 8 it/s');
    expect(planText(findingsPlan('quick', { capacity: NOMINAL_CAPACITY, seed: 7 }))).toContain('capacity: none needed (every level is searched); multiples counted in 8 it/s');
    expect(planText(findingsPlan('full', { capacity: null, seed: 7 }))).toContain('no calibration of naked-mon with the same placement meeting the SLO');
  });

  it('the 2 × 2 fourth cell is msa-1-1 with an async grader', () => {
    const c = findingsPlan('quick').cells.find((x) => x.variant === 'msa-1-1-async')!;
    expect(c.derived).toEqual(MSA_ASYNC);
    expect(c.level).toBe('paper');
  });

  it('writes the derived cell as a valid resolved spec named after it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-spec-'));
    try {
      const spec = loadVariant(writeDerivedSpec(MSA_ASYNC, dir));
      expect(spec.name).toBe('msa-1-1-async');
      expect(spec.grader.exec).toBe('async');
      expect(spec.topology).toBe('msa');
      expect(spec.replicas).toEqual(loadVariant('msa-1-1').replicas);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('smoke mode', () => {
  it('naked-mon and msa-1-1 at 0.5× and the paper-equivalent load, within 15 min', () => {
    const p = findingsPlan('smoke', { seed: 1, capacity });
    expect(p.cells.map((c) => `${c.variant}@${c.level}`)).toEqual(['naked-mon@0.5x', 'naked-mon@paper', 'msa-1-1@0.5x', 'msa-1-1@paper']);
    expect(p.estimate.totalMin).toBeLessThanOrEqual(15);
  });
});
