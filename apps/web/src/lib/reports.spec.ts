import type { RunLink } from '@shellgrade/console-contract';
import { cellRunText, formatDifference, formatMetric, formatRank, recoveryText, runLinkItems } from './reports';

const d = (diff: number, lo: number | null, hi: number | null) => ({ nA: 2, nB: 2, meanA: 1, meanB: 1 + diff, diff, relative: null, lo, hi, significant: false });

describe("the findings' figures, as the harness's report prints them", () => {
  it('a difference with its interval, signed with a true minus; fractions in points', () => {
    expect(formatDifference(d(-120, -180, -60), 'p95')).toBe('−120 ms [−180 ms, −60.0 ms]');
    expect(formatDifference(d(1250.2, null, null), 'p95')).toBe('+1250 ms (no CI)');
    expect(formatDifference(d(-0.05, -0.08, 0.02), 'efr')).toBe('−5.0 pt [−8.0 pt, +2.0 pt]');
    expect(formatDifference(d(2.2e-16, -0.5, 0.5), 'cpuPerIteration')).toBe('0.00 s [−0.500 s, +0.500 s]');
    expect(formatDifference(null, 'p95')).toBe('n/a');
  });
  it('a value in its unit', () => {
    expect(formatMetric(518.27, 'p95')).toBe('518 ms');
    expect(formatMetric(0.615, 'efr')).toBe('61.5 %');
    expect(formatMetric(0.91234, 'apdex')).toBe('0.912');
    expect(formatMetric(null, 'p95')).toBe('n/a');
  });
  it("Mann–Whitney and Cliff's δ", () => {
    expect(formatRank({ comparison: { rank: { p: 0.01, cliffsDelta: -0.9, magnitude: 'large' }, tost: null } } as never)).toBe('p = 0.010, δ = −0.90 (large)');
    expect(formatRank({ comparison: null } as never)).toBe('n/a');
  });
});

describe("the resilience table's cells", () => {
  it('lost · EFR during · recovery, as bench faults-table prints one run', () => {
    expect(cellRunText({ runId: 'r', folder: 'f', lost: 0, efrDuring: 0.03, recovered: true, recoveryMs: 2000, valid: true, reasons: [] })).toBe('lost 0 · EFR 3.0 % · rec 2.0 s');
    expect(cellRunText({ runId: 'r', folder: 'f', lost: null, efrDuring: null, recovered: false, recoveryMs: null, valid: true, reasons: [] })).toBe('lost n/a · EFR n/a · rec not recovered');
    expect(recoveryText({ recovered: true, sinceUndoMs: 0 })).toBe('0.0 s');
  });
});

describe('the links of a run', () => {
  const link: RunLink = { id: 'r 1', present: true, variant: 'v', report: 'report/report.html', breakdown: 'breakdown.html', traces: [{ label: 'p50 exemplar', traceId: 'abc' }] };
  it('its report and breakdown under /ops/runs (encoded), its traces in the trace view', () => {
    expect(runLinkItems(link, 'r 1')).toEqual([
      { href: '/ops/runs/r%201/report/report.html', label: 'report', inApp: false },
      { href: '/ops/runs/r%201/breakdown.html', label: 'trace breakdown', inApp: false },
      { href: '/console/trace/abc', label: 'trace: p50 exemplar', inApp: true },
    ]);
    expect(runLinkItems({ ...link, report: 'k6-dashboard-run-1.html', breakdown: null, traces: [] }, 'x')).toEqual([{ href: '/ops/runs/x/k6-dashboard-run-1.html', label: 'k6 dashboard', inApp: false }]);
  });
  it('none for a run that is not in the results folder', () => {
    expect(runLinkItems({ ...link, present: false }, 'r')).toEqual([]);
    expect(runLinkItems(undefined, 'r')).toEqual([]);
  });
});
