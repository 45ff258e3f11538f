import { evaluateFindings } from '../../src/findings/evaluate';
import { LEVELS } from '../../src/findings/loads';
import { methodology } from '../../src/findings/methodology';
import { findingsPlan, type FindingsPlan } from '../../src/findings/plan';
import type { StoppingRule } from '../../src/stats/stopping';
import { useRecordedCells } from './recorded';

const recorded = useRecordedCells('sg-method-');

function planWith(stopping: StoppingRule): FindingsPlan {
  const q = findingsPlan('quick', { seed: 3, capacity: { rate: 8, source: '--rate' } });
  return { ...q, protocol: { ...q.protocol, levels: LEVELS, stopping } };
}

const principles = (plan: FindingsPlan, c = recorded()) => methodology({ plan, cells: c, results: evaluateFindings({ plan, cells: c }) });

describe('methodology section (Papadopoulos et al. 2019)', () => {
  it('lists the eight principles in order, each with evidence in numbers', () => {
    const ps = principles(planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 }));
    expect(ps.map((p) => `${p.id} ${p.name}`)).toEqual([
      'P1 Repeated experiments',
      'P2 Workload and configuration coverage',
      'P3 Experimental setup description',
      'P4 Open access artifact',
      'P5 Probabilistic result description',
      'P6 Statistical evaluation',
      'P7 Measurement units',
      'P8 Cost',
    ]);
    expect(ps[0].evidence).toMatch(/^\d+ cells, valid runs per cell 3–3 \(median 3\); rule: 3–6 runs until the 95% half-width of B − A ≤ 10% of A's median; \d+\/\d+ comparisons reached that precision; runs interleaved in a seeded random order \(seed 3\)$/);
    expect(ps[0].flag).toBeUndefined();
    expect(ps[5].evidence).toMatch(/^\d+ comparisons, each with Welch's 95% interval, Mann–Whitney U .* with Cliff's δ, and TOST/);
    expect(ps[7].flag).toBe('wall time not recorded (evaluated from results, not run)');
  });

  it('flags a run with fewer repetitions than the rule asks', () => {
    const p1 = principles(planWith({ minRuns: 5, maxRuns: 10, precision: 0.1 }))[0];
    expect(p1.flag).toMatch(/^fewer valid runs than the rule's minimum of 5: naked-mon@1x 3, naked-mon@paper 3, /);
  });

  it('flags one cell short of the minimum, naming it', () => {
    const short = { ...recorded(), 'mon-x2@1x': { ...recorded()['mon-x2@1x'], runs: recorded()['mon-x2@1x'].runs.slice(0, 2) } };
    expect(principles(planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 }), short)[0].flag).toBe("fewer valid runs than the rule's minimum of 3: mon-x2@1x 2");
  });

  it('flags comparisons that reached the maximum without the precision, and a mode that asks fewer than 3 runs', () => {
    const p1 = principles(planWith({ minRuns: 2, maxRuns: 3, precision: 0.1 }))[0];
    expect(p1.flag).toMatch(/comparison\(s\) stopped at the maximum of 3 with the half-width above 10% of the baseline median: .*msa-1-2@1x vs msa-1-1@1x \(p95\)/);
    expect(p1.flag).toMatch(/this mode's rule asks only 2 runs per cell$/);
  });
});
