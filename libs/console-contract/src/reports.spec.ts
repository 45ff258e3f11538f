import { cellRunIds, findingRunIds, lostOf, resilienceMatrix, verdictCounts, type FaultRun } from './reports';

const run = (fault: string, variant: string, runId: string, o: Partial<FaultRun> = {}): FaultRun => {
  const w = { N: 10, OK: 8, KO: 2, RAC: 1, EFR: 0.2, koCauses: {}, p95Ms: 100 };
  return {
    fault,
    variant,
    runId,
    rate: 2,
    applied: { target: 't', injectedAtMs: 0, undoneAtMs: 1 },
    before: w,
    during: w,
    after: w,
    timeToFirstErrorMs: null,
    recovery: { recovered: true, sinceUndoMs: 1500, sinceInjectMs: 2500, lastP95Ms: 90, thresholdMs: 110, lastKO: 0, bucketMs: 5000 },
    audit: null,
    lost: 0,
    duplicated: 0,
    crashes: [],
    valid: true,
    reasons: [],
    ...o,
  };
};

describe('the resilience matrix (bench faults-table as data)', () => {
  it('rows faults, columns variants (sorted), each cell its runs oldest first; a run in two folders once', () => {
    const a = run('restart:postgres', 'naked-mon', '20261101T000000Z-a');
    const b = run('restart:postgres', 'naked-mon', '20261102T000000Z-b', { lost: 2, duplicated: 1, recovery: { ...a.recovery, recovered: false, sinceUndoMs: null } });
    const c = run('kill:gateway', 'msa-1-2', '20261103T000000Z-c', { during: { ...a.during, EFR: 0.5 } });
    const m = resilienceMatrix([
      { id: 'f2', results: [b, a] },
      { id: 'f1', results: [a, c] },
    ]);
    expect(m.faults).toEqual(['kill:gateway', 'restart:postgres']);
    expect(m.variants).toEqual(['msa-1-2', 'naked-mon']);
    expect(m.cells[0]![1]!.runs).toEqual([]);
    expect(m.cells[0]![0]!.runs).toEqual([{ runId: c.runId, folder: 'f1', lost: 0, efrDuring: 0.5, recovered: true, recoveryMs: 1500, valid: true, reasons: [] }]);
    expect(m.cells[1]![1]!.runs.map((r) => [r.runId, r.folder, r.lost, r.recoveryMs])).toEqual([
      [a.runId, 'f2', 0, 1500],
      [b.runId, 'f2', 3, null],
    ]);
  });

  it('counts duplicated requests as lost, and no audit as unknown', () => {
    expect(lostOf({ lost: 1, duplicated: 2 })).toBe(3);
    expect(lostOf({ lost: 0, duplicated: null })).toBe(0);
    expect(lostOf({ lost: null, duplicated: null })).toBeNull();
  });
});

describe('the runs behind a finding', () => {
  const ref = (variant: string, runId: string) => ({ role: 'r', level: '1x', variant, runId, validRuns: [1] });
  const cells = { 'naked-mon@1x': ['m1', 'm2'], 'msa-1-1@1x': ['s1', 's2'] };
  it("every run merged into each side's cell, each once, A before B", () => {
    const parts = [{ a: ref('naked-mon', 'm1'), b: ref('msa-1-1', 's1') }, { a: ref('naked-mon', 'm1'), b: null }];
    expect(findingRunIds({ parts } as never, cells)).toEqual(['m1', 'm2', 's1', 's2']);
  });
  it("a side's own run when its cell is not listed or does not hold it", () => {
    expect(cellRunIds(cells, ref('mon-async', 'x1'))).toEqual(['x1']);
    expect(cellRunIds(cells, ref('naked-mon', 'other'))).toEqual(['other']);
  });
  it('counts the verdicts', () => {
    expect(verdictCounts([{ verdict: 'refuted' }, { verdict: 'inconclusive' }, { verdict: 'refuted' }])).toEqual({ reproduced: 0, refuted: 2, inconclusive: 1, 'not testable': 0 });
  });
});
