import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFindings } from '../../src/findings/evaluate';
import { LEVELS } from '../../src/findings/loads';
import { methodology } from '../../src/findings/methodology';
import { findingsPlan, type FindingsPlan } from '../../src/findings/plan';
import type { FindingsRecord } from '../../src/findings/record';
import type { StoppingRule } from '../../src/stats/stopping';
import { useRecordedCells, RECORDED_ROLES } from './recorded';

const recorded = useRecordedCells('sg-method-');

function planWith(stopping: StoppingRule): FindingsPlan {
  const q = findingsPlan('quick', { seed: 3, capacity: { rate: 8, source: '--rate' }, roles: RECORDED_ROLES });
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
    expect(p1.flag).toMatch(/^fewer valid runs than the rule's minimum of 5: naked-mon@paper 3, naked-mon-async@paper 3, /);
  });

  it('flags one cell short of the minimum, naming it', () => {
    const short = { ...recorded(), 'mon-x2@paper': { ...recorded()['mon-x2@paper'], runs: recorded()['mon-x2@paper'].runs.slice(0, 2) } };
    expect(principles(planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 }), short)[0].flag).toBe("fewer valid runs than the rule's minimum of 3: mon-x2@paper 2");
  });

  it('flags comparisons that reached the maximum without the precision, and a mode that asks fewer than 3 runs', () => {
    const p1 = principles(planWith({ minRuns: 2, maxRuns: 3, precision: 0.1 }))[0];
    expect(p1.flag).toMatch(/comparison\(s\) stopped at the maximum of runs with the half-width above 10% of the baseline median: .*msa-1-2@paper vs msa-1-1@paper \(apdex, 3 and 3 runs\)/);
    expect(p1.flag).toMatch(/this mode's rule asks only 2 runs per cell$/);
  });

  it('names the sessions of a continued run, the runs set aside and why, and a continuation limited to some claims', () => {
    const plan = planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 });
    const record: FindingsRecord = {
      mode: 'quick', seed: 3, capacity: { rate: 8, source: '--rate' }, paper: { target: 0.615, multiple: 16, efr: 0.65, probes: [] }, peaks: {}, rounds: [[], [], []], runs: {}, failed: [], comparisons: [],
      budgetMin: 115, claimsVersion: 1, startedAt: '2026-11-27T09:00:00.000Z', endedAt: '2026-11-27T10:50:00.000Z',
      superseded: [{ cell: 'msa-1-1@paper', runs: ['a', 'b', 'c'], reason: 'gateway crash fixed in 5535b89' }],
      continuations: [{ startedAt: '2026-11-27T13:00:00.000Z', endedAt: '2026-11-27T14:00:00.000Z', seed: 11, claimsVersion: 2, budgetMin: 60, claims: ['v', 'RQ2'], rerun: ['msa-1-1@paper'], maxRuns: 12, firstRound: 3, commit: 'abcdef0123456789', stoppedEarly: 'time budget: round x' }],
    };
    const ps = methodology({ plan, cells: recorded(), results: evaluateFindings({ plan, cells: recorded() }), record });
    expect(ps[0].evidence).toMatch(/; planned with claims v1, continued 1× \(claims v2, seed 11, from round 4, commit abcdef012345, up to 12 runs a cell\); rerun msa-1-1@paper \(3 runs set aside: gateway crash fixed in 5535b89\)$/);
    expect(ps[0].flag).toContain('continuation of 2026-11-27T13:00 stopped early: time budget: round x');
    expect(ps[0].flag).toContain('continuation of 2026-11-27T13:00 ran only for claims v, RQ2: other comparisons got no further runs');
    // Cost: both sessions' wall time (110 + 60 min) against both budgets (115 + 60), the set-aside runs counted.
    expect(ps[7].evidence).toMatch(/ runs over 2 sessions in 170 min wall time = 5\.7 core-hours on this 2-core machine; planned \d+ min for the minimum runs \(\d+ min at the maximum\), budget 175 min$/);
    expect(ps[7].flag).toBeUndefined();
  });

  it('counts a calibration made first in the cost and names it', () => {
    const plan = planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 });
    const record: FindingsRecord = {
      mode: 'full', seed: 3, capacity: { rate: 8, source: 'c.json' }, paper: { target: 0.615, multiple: 16, efr: 0.65, probes: [] }, peaks: {}, rounds: [[], [], []], runs: {}, failed: [], comparisons: [],
      budgetMin: 150, claimsVersion: 3, startedAt: '2026-11-27T09:12:00.000Z', endedAt: '2026-11-27T11:00:00.000Z',
      calibratedFirst: { source: 'c.json', startedAt: '2026-11-27T09:00:00.000Z', seconds: 720 },
    };
    const cost = methodology({ plan, cells: recorded(), results: evaluateFindings({ plan, cells: recorded() }), record })[7];
    expect(cost.evidence).toMatch(/ in 120 min wall time \(12 of them calibrating naked-mon first\) = 4\.0 core-hours on this 2-core machine; .*budget 150 min$/);
  });

  it('P4 reads the commit of every recorded run, not one folder per cell', () => {
    const root = mkdtempSync(join(tmpdir(), 'sg-p4-'));
    try {
      const write = (id: string, commit: string, dirty: boolean) => {
        mkdirSync(join(root, id), { recursive: true });
        writeFileSync(join(root, id, 'manifest.json'), JSON.stringify({ project: { commit, dirty } }));
      };
      write('r1', 'aaaaaaaaaaaaaaaa', false);
      write('r2', 'bbbbbbbbbbbbbbbb', true);
      const plan = planWith({ minRuns: 3, maxRuns: 6, precision: 0.1 });
      const record = { mode: 'quick', seed: 3, capacity: { rate: 8, source: '--rate' }, paper: { target: 0.615, multiple: null, efr: null, probes: [] }, peaks: {}, rounds: [], runs: { 'naked-mon@paper': ['r1', 'r2'] }, failed: [], comparisons: [], startedAt: '2026-11-27T09:00:00.000Z', endedAt: null } satisfies FindingsRecord;
      const p4 = methodology({ plan, cells: recorded(), results: [], record, resultsRoot: root })[3];
      expect(p4.evidence).toMatch(/^code at commit aaaaaaaaaaaa, bbbbbbbbbbbb;/);
      expect(p4.flag).toBe('1 run folder(s) from a working tree with uncommitted changes; runs from 2 commits');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
