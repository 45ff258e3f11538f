import { roundCells } from '../../src/findings/budget';
import { closeInterrupted, continuationPreview, planFor, recordedPace, setAside, supersede, withMaxRuns } from '../../src/findings/continue';
import { findingsPlan } from '../../src/findings/plan';
import type { Side } from '../../src/compare/sides';
import type { FindingsRecord } from '../../src/findings/record';
import { cellKey } from '../../src/findings/schedule';

const record = (): FindingsRecord => ({
  mode: 'full',
  seed: 1,
  capacity: { rate: 8, source: '--rate' },
  paper: { target: 0.615, multiple: 16, efr: 0.65, probes: [{ multiple: 2, peak: 16, efr: 0, runId: 'p1' }] },
  peaks: { '0.5x': 4, paper: 128 },
  rounds: [],
  runs: { 'msa-1-1@paper': ['r1', 'r2', 'r3'], 'naked-mon@paper': ['n1', 'n2', 'n3'] },
  failed: [],
  comparisons: [],
  startedAt: '2026-11-27T09:00:00.000Z',
  endedAt: '2026-11-27T09:14:00.000Z',
});

describe('findings --continue', () => {
  it('--max-runs raises the stated maximum for the session only, never below the minimum', () => {
    const plan = findingsPlan('full', { seed: 1, capacity: { rate: 8, source: '--rate' } });
    expect(withMaxRuns(plan, 12).protocol.stopping).toEqual({ minRuns: 3, maxRuns: 12, precision: 0.1 });
    expect(plan.protocol.stopping.maxRuns).toBe(6);
    expect(withMaxRuns(plan, undefined)).toBe(plan);
    expect(() => withMaxRuns(plan, 2)).toThrow("--max-runs 2: below the protocol's minimum of 3 runs a cell");
  });

  it('--rerun sets a cell\'s runs aside with the reason, so the cell runs again from none', () => {
    const r = record();
    supersede(r, ['msa-1-1@paper'], 'gateway crash fixed in 5535b89');
    expect(r.runs).toEqual({ 'naked-mon@paper': ['n1', 'n2', 'n3'] });
    expect(r.superseded).toEqual([{ cell: 'msa-1-1@paper', runs: ['r1', 'r2', 'r3'], reason: 'gateway crash fixed in 5535b89' }]);
  });

  it('--rerun of a cell the record never ran is refused, naming the cells it has', () => {
    expect(() => supersede(record(), ['msa-9-9@paper'], 'x')).toThrow('--rerun msa-9-9@paper: the record has no runs of that cell (cells: msa-1-1@paper, naked-mon@paper)');
  });

  it('--claims narrows the cells and comparisons to those claims; an unknown claim is refused', () => {
    const plan = findingsPlan('full', { seed: 1 });
    const v = planFor(plan, ['v']);
    expect(v.plan.cells.map(cellKey).sort()).toEqual(['msa-1-1-async@0.5x', 'msa-1-1@0.5x', 'naked-mon-async@0.5x', 'naked-mon@0.5x']);
    expect(v.comparisons.map((w) => `${w.claim} ${w.a} ${w.b} ${w.metric}`)).toEqual(['v naked-mon@0.5x msa-1-1@0.5x cpuPerIteration']);
    // RQ2's ceiling is the same comparison as (iii)'s: it is watched for RQ2 alone too.
    expect(planFor(plan, ['RQ2']).comparisons.map((w) => w.b)).toContain('msa-1-4@1.5x');
    expect(planFor(plan).plan.cells).toHaveLength(plan.cells.length);
    expect(() => planFor(plan, ['v', 'viii'])).toThrow('--claims: no claim viii');
  });

  it('plans its first round at the recorded run\'s pace (search probes and set-aside runs counted)', () => {
    // 14 min over 6 cell runs + 1 probe = 120 s a run.
    expect(recordedPace(record())).toBe(120);
    expect(recordedPace({ ...record(), endedAt: null })).toBeNull();
  });
});

describe('a continuation stopped before it closed its session', () => {
  const session = { seed: 2, claimsVersion: 3, budgetMin: 25, claims: ['v'], rerun: [], firstRound: 6, commit: 'd9462f4' };

  it('is closed by the next one as interrupted, at its last save (or its start, if it never saved)', () => {
    const r = { ...record(), continuations: [
      { ...session, startedAt: '2026-11-28T02:37:00.000Z', endedAt: '2026-11-28T02:44:00.000Z' },
      { ...session, startedAt: '2026-11-28T03:35:00.000Z', endedAt: null, lastSavedAt: '2026-11-28T03:37:10.000Z' },
      { ...session, startedAt: '2026-11-28T03:40:00.000Z', endedAt: null },
    ] };
    closeInterrupted(r);
    expect(r.continuations.map((c) => [c.endedAt, 'interrupted' in c ? c.interrupted : undefined])).toEqual([
      ['2026-11-28T02:44:00.000Z', undefined],
      ['2026-11-28T03:37:10.000Z', true],
      ['2026-11-28T03:40:00.000Z', true],
    ]);
  });
});

describe('--continue --dry-run', () => {
  const plan = findingsPlan('full', { seed: 1, capacity: { rate: 8, source: '--rate' } });
  const r = { ...record(), runs: { 'naked-mon@0.5x': ['n1', 'n2', 'n3', 'n4'], 'msa-1-1@0.5x': ['m1', 'm2', 'm3'] } };
  // (v)'s async cells have their minimum (they are in no comparison of (v)); its two sides are not measured yet.
  const sides = { 'naked-mon-async@0.5x': { runs: [1, 2, 3] }, 'msa-1-1-async@0.5x': { runs: [1, 2, 3] } } as unknown as Record<string, Side>;

  it("lists the claims' cells still active, the runs each may get and the time at the recorded pace", () => {
    expect(continuationPreview(plan, r, sides, { claims: ['v'], maxRuns: 12, budgetMin: 25 }).split('\n')).toEqual([
      'continue (dry run): claims v; up to 12 runs a cell; budget 25 min',
      '  naked-mon@0.5x: 4 runs so far, up to 8 more',
      '  msa-1-1@0.5x: 3 runs so far, up to 9 more',
      'at most 17 runs ≈ 30 min at the recorded pace of 105 s a run (the budget stops it after ≈ 14 runs)',
    ]);
  });

  it('says so when no cell in scope may run any more', () => {
    const atFour = continuationPreview(plan, r, sides, { claims: ['v'], maxRuns: 4, budgetMin: 25 });
    expect([atFour.includes('naked-mon@0.5x'), atFour.includes('msa-1-1@0.5x: 3 runs so far, up to 1 more')]).toEqual([false, true]);
    expect(continuationPreview(plan, r, sides, { claims: ['v'], maxRuns: 3, budgetMin: 25 })).toContain('no cell needs more runs');
  });
});

describe('a continuation round under its budget', () => {
  const s = { round: 7, minRuns: 3, secondsPerRun: 120, elapsedS: 59 * 60, budgetS: 60 * 60 };
  const runs: Record<string, number> = { old: 5, atMinimum: 3, fresh: 1, rerun: 0 };

  it('runs every active cell while the round fits, whatever its number', () => {
    expect(roundCells(['old', 'fresh', 'rerun'], (c) => runs[c], { ...s, elapsedS: 0 })).toEqual({ cells: ['old', 'fresh', 'rerun'], stopped: null });
    expect(roundCells(['old'], (c) => runs[c], { ...s, round: 2, elapsedS: 0 })).toEqual({ cells: ['old'], stopped: null });
  });

  it('past the budget, runs only the cells still below the minimum', () => {
    expect(roundCells(['old', 'atMinimum', 'fresh', 'rerun'], (c) => runs[c], s)).toEqual({ cells: ['fresh', 'rerun'], stopped: null });
  });

  it('stops, saying why, when every cell has its minimum and the round does not fit', () => {
    const r = roundCells(['old'], (c) => runs[c], s);
    expect(r.cells).toEqual([]);
    expect(r.stopped).toBe("round 7 (1 runs, ~2 min at this run's 120 s a run) would end after the 60 min budget (59 min spent)");
  });
});

describe('--set-aside', () => {
  it('takes single runs out of their cells, keeping them and the reason', () => {
    const r = record();
    setAside(r, ['r2'], 'started on a busy system');
    expect(r.runs['msa-1-1@paper']).toEqual(['r1', 'r3']);
    expect(r.superseded).toEqual([{ cell: 'msa-1-1@paper', runs: ['r2'], reason: 'started on a busy system' }]);
    expect(() => setAside(r, ['r9'], 'x')).toThrow('--set-aside r9: no cell of the record has that run');
  });
});
