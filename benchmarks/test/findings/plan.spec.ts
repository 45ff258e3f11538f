import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVariant } from '@shellgrade/variant';
import { CLAIMS } from '../../src/findings/claims';
import { OVERLOAD_LEVELS } from '../../src/findings/loads';
import { estimate, findingsPlan, MSA_ASYNC, planText, PROTOCOLS, SETUP_S, TAIL_S } from '../../src/findings/plan';
import { writeDerivedSpec } from '../../src/findings/run';

const capacity = { rate: 8, source: '20261127T000000Z-naked-mon-calibration.json' };

describe('findings plan (printable with --dry-run, nothing run)', () => {
  it('--quick: the 2 × 2 and one replicated configuration per architecture at 0.5× and the paper-equivalent load, within 30 min', () => {
    const p = findingsPlan('quick', { seed: 7, capacity });
    expect([...new Set(p.cells.map((c) => c.variant))]).toEqual(['naked-mon', 'naked-mon-async', 'msa-1-1', 'msa-1-1-async', 'mon-x2', 'msa-1-2']);
    expect(p.cells.map((c) => `${c.variant}@${c.level}`)).toEqual(['naked-mon@0.5x', 'naked-mon@paper', 'naked-mon-async@0.5x', 'naked-mon-async@paper', 'msa-1-1@0.5x', 'msa-1-1@paper', 'msa-1-1-async@0.5x', 'msa-1-1-async@paper', 'mon-x2@paper', 'msa-1-2@paper']);
    expect(p.estimate.totalMin).toBeLessThanOrEqual(30);
    expect(p.notRun).toContain('msa-gateway-replicated@paper');
    expect(p.notRun).toContain('mon-replicated@1x');
  });

  it('full: every role at every level a claim names, 3–6 adaptive runs, within 3 h', () => {
    const p = findingsPlan('full', { seed: 7, capacity });
    expect(p.notRun).toEqual([]);
    expect(p.protocol.stopping).toEqual({ minRuns: 3, maxRuns: 6, precision: 0.1 });
    expect(p.cells.map((c) => `${c.variant}@${c.level}`)).toEqual(expect.arrayContaining(['msa-1-4@1.5x', 'msa-2-2-2@paper', 'naked-mon@0.5x', 'msa-1-2@paper', 'mon-x2@1x', 'naked-mon@paper', 'naked-mon-async@paper', 'msa-1-1-async@paper']));
    expect(p.estimate.totalMin).toBeLessThanOrEqual(180);
    expect(p.estimate.totalMin).toBeGreaterThan(60);
  });

  it('availability (EFR) and performance (Apdex) parts are judged as the paper judged them, at the paper-equivalent load; ceilings at 1.5×; resources below capacity', () => {
    const parts = CLAIMS.flatMap((c) => c.tests);
    const differences = parts.filter((t) => t.expect !== 'same');
    expect(differences.filter((t) => t.metric === 'efr' || t.metric === 'apdex').every((t) => OVERLOAD_LEVELS.includes(t.level) && t.level === 'paper')).toBe(true);
    expect(parts.some((t) => t.metric === 'p95')).toBe(false);
    expect(parts.filter((t) => t.expect === 'same').every((t) => t.level === '1.5x' && t.metric === 'apdex')).toBe(true);
    expect(parts.filter((t) => ['cpuPerIteration', 'memMiB', 'energyWh'].includes(t.metric)).every((t) => t.level === '0.5x' || t.level === '1x')).toBe(true);
  });

  it('estimates the worst case: search + maxRuns × (a bring-up per variant + a run per cell)', () => {
    const pr = PROTOCOLS.full;
    const runS = pr.rampS + pr.holdS + TAIL_S + pr.pauseS;
    expect(estimate(pr, 8, 17)).toEqual({ runS, roundS: 8 * SETUP_S + 17 * runS, searchS: SETUP_S + 5 * runS, totalMin: Math.ceil((SETUP_S + 5 * runS + 6 * (8 * SETUP_S + 17 * runS)) / 60) });
  });

  it('--dry-run prints the capacity, each level in it/s, every cell, every round in the seeded order and the duration', () => {
    const text = planText(findingsPlan('quick', { seed: 7, capacity }));
    expect(text.split('\n')[0]).toBe('findings (quick): 10 cells (variant × load) over 6 variants; profile small, ramp 5 s + hold 15 s, 5 s apart; seed 7');
    expect(text).toContain('capacity: naked-mon sustains 8 it/s (SPS p95 ≤ 2 s, 0 KO; 20261127T000000Z-naked-mon-calibration.json); levels 0.5x = 4 it/s, paper = searched');
    expect(text).toMatch(/estimated duration \(worst case\): search [\d.]+ min \+ 2 rounds × [\d.]+ min \(55 s a run, 30 s a bring-up\) = \d+ min \(budget 30 min: a round past the minimum of 2 starts only if it fits at the pace measured\)/);
    expect(text).toContain('7. msa-1-1-async (= msa-1-1 with {"grader":{"exec":"async"}}) @ 0.5x (4 it/s)');
    const rounds = text.split('\n').filter((l) => l.startsWith('round '));
    expect(rounds).toHaveLength(2);
    for (const r of rounds) expect(r.split(' → ')).toHaveLength(10);
    expect(planText(findingsPlan('quick', { seed: 7, capacity }))).toBe(text);
    expect(findingsPlan('quick', { capacity: null, seed: 7 }) && planText(findingsPlan('quick', { capacity: null, seed: 7 }))).toContain('no calibration of naked-mon with the same placement meeting the SLO');
  });

  it('the 2 × 2 fourth cell is msa-1-1 with an async grader', () => {
    const c = findingsPlan('quick').cells.find((x) => x.variant === 'msa-1-1-async')!;
    expect(c.derived).toEqual(MSA_ASYNC);
    expect(c.level).toBe('0.5x');
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
  it('naked-mon and msa-1-1 at 0.5× and the paper-equivalent load, within 10 min', () => {
    const p = findingsPlan('smoke', { seed: 1, capacity });
    expect(p.cells.map((c) => `${c.variant}@${c.level}`)).toEqual(['naked-mon@0.5x', 'naked-mon@paper', 'msa-1-1@0.5x', 'msa-1-1@paper']);
    expect(p.estimate.totalMin).toBeLessThanOrEqual(10);
  });
});
