import type { Side } from '../../src/compare/sides';
import { LEVELS } from '../../src/findings/loads';
import { mergeSides } from '../../src/findings/merge-sides';
import { findingsPlan } from '../../src/findings/plan';
import { cellKey } from '../../src/findings/schedule';
import { activeCells, watchedComparisons } from '../../src/findings/watched';
import { useRecordedCells, RECORDED_ROLES } from './recorded';

const recorded = useRecordedCells('sg-watched-');

const q = findingsPlan('quick', { seed: 3, roles: RECORDED_ROLES });
const plan = { ...q, protocol: { ...q.protocol, levels: LEVELS, stopping: { minRuns: 3, maxRuns: 6, precision: 0.1 } } };

describe('which cells the next round runs (recorded runs, 3 each)', () => {
  it('watches every claim part both of whose cells are planned, once', () => {
    const w = watchedComparisons(plan);
    expect(w.map((x) => `${x.b} vs ${x.a} ${x.metric}`)).toContain('msa-1-1@paper vs naked-mon@paper apdex');
    expect(new Set(w.map((x) => `${x.a} ${x.b} ${x.metric}`)).size).toBe(w.length);
  });

  it('keeps the cells of a comparison still too wide (msa-1-2: Apdex ±10 % run to run) and drops the precise ones', () => {
    const w = watchedComparisons(plan);
    const active = activeCells(plan, w, recorded()).map(cellKey);
    expect(active).toEqual(expect.arrayContaining(['msa-1-2@paper', 'msa-1-1@paper']));
    expect(active).not.toContain('naked-mon-async@paper');
    expect(w.find((x) => x.a === 'naked-mon-async@paper')!.state).toMatchObject({ stop: true, reason: 'precise' });
  });

  it('a comparison with one side below the minimum keeps only that side running (a new cell against one that has its runs)', () => {
    const newCell = { ...recorded(), 'msa-1-1-async@paper': { ...recorded()['msa-1-1-async@paper'], runs: recorded()['msa-1-1-async@paper'].runs.slice(0, 1) } };
    const w = watchedComparisons(plan);
    const active = activeCells(plan, w, newCell).map(cellKey);
    expect(w.find((x) => x.b === 'msa-1-1-async@paper')!.state).toMatchObject({ stop: false, reason: 'too few runs', nA: 3, nB: 1 });
    expect(active).toContain('msa-1-1-async@paper');
    expect(active).not.toContain('naked-mon-async@paper');
  });

  it('every cell runs again while below the minimum', () => {
    const fewer = Object.fromEntries(Object.entries(recorded()).map(([k, s]) => [k, { ...s, runs: s.runs.slice(0, 2) }]));
    expect(activeCells(plan, watchedComparisons(plan), fewer)).toHaveLength(plan.cells.length);
  });
});

describe('a cell merged from its single-run folders', () => {
  it('concatenates the valid runs, renumbered, and keeps every folder in its ref', () => {
    const s = recorded()['naked-mon@1x'];
    const one = (i: number): Side => ({ ...s, ref: `run${i}`, runs: [{ ...s.runs[i], run: 1 }], result: { ...s.result, aggregated: { ...s.result.aggregated, runs: 1 } } });
    const m = mergeSides([one(0), one(1), one(2)]);
    expect(m.runs.map((r) => r.run)).toEqual([1, 2, 3]);
    expect(m.runs.map((r) => r.paper)).toEqual(s.runs.map((r) => r.paper));
    expect(m.ref).toBe('run0+run1+run2');
    expect(m.result.aggregated).toMatchObject({ runs: 3, validRuns: 3 });
  });
});
