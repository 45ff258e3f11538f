import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareSides, type ComparisonRow } from '../../src/compare/compare';
import { comparisonHtml, comparisonMarkdown } from '../../src/compare/render';
import { loadSide, parseSideRef, selectRuns, type Side } from '../../src/compare/sides';
import { writeComparison } from '../../src/compare/write';
import { runRecord, writeTestFolder, type RunFigures } from './run-fixtures';

// Run-to-run noise shared by both sides: what a real test shows between its runs.
const NOISE = [0, 7, -5, 3, -4];
const runs = (f: (i: number, n: number) => RunFigures) => NOISE.map((n, i) => runRecord(i + 1, f(i, n)));

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-compare-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function side(runId: string, variant: string, records: ReturnType<typeof runs>, ref = runId): Side {
  writeTestFolder(root, runId, variant, records);
  return loadSide(ref.includes('/') ? ref : join(root, ref));
}

const row = (rows: ComparisonRow[], type: string, metric: string) => rows.find((r) => r.type === type && r.def.metric === metric)!;

describe('compare two tests', () => {
  it('identical runs: no difference is significant', () => {
    const recs = runs((_, n) => ({ p50: 100 + n, sps: { p50: 900 + 10 * n }, throughput: 15 + n / 10, cpuS: 9 + n / 10 }));
    const c = compareSides(side('a', 'naked-mon', recs), side('b', 'naked-mon-async', recs));
    expect(c.rows.length).toBeGreaterThan(10);
    expect(c.rows.filter((r) => r.significant)).toEqual([]);
  });

  it('a shifted SPS latency is significant and worse; the unshifted metrics stay not significant', () => {
    const a = runs((_, n) => ({ sps: { p50: 900 + 10 * n }, p50: 100 + n }));
    const b = runs((i, n) => ({ sps: { p50: 1400 + 10 * NOISE[(i + 2) % 5] }, p50: 100 + n }));
    const c = compareSides(side('a', 'naked-mon', a), side('b', 'msa-1-1', b));
    const sps = row(c.rows, 'sps', 'p50');
    expect(sps.significant).toBe(true);
    expect(sps.direction).toBe('worse');
    expect(sps.diff).toBeCloseTo(500, 6);
    expect(row(c.rows, 'all', 'p50').significant).toBe(false);
    expect(row(c.rows, 'login', 'p50').significant).toBe(false);
  });

  it('higher throughput and lower CPU per iteration count as better', () => {
    const a = runs((_, n) => ({ throughput: 10 + n / 10, cpuS: 20 + n / 10 }));
    const b = runs((_, n) => ({ throughput: 14 + n / 10, cpuS: 10 + n / 10 }));
    const c = compareSides(side('a', 'naked-mon', a), side('b', 'naked-mon-async', b));
    expect(row(c.rows, 'all', 'throughput').direction).toBe('better');
    expect(row(c.rows, 'run', 'cpuSPerIteration').direction).toBe('better');
  });

  it('compares VALID runs only and names the ones it left out', () => {
    const a = runs((_, n) => ({ p50: 100 + n }));
    a[0] = runRecord(1, { p50: 100000, valid: false });
    const c = compareSides(side('a', 'naked-mon', a), side('b', 'naked-mon', runs((_, n) => ({ p50: 100 + n }))));
    expect(c.a.runs).toEqual([2, 3, 4, 5]);
    expect(c.a.excluded).toEqual([{ run: 1, reasons: ['k6 dropped 3 iterations'] }]);
    expect(row(c.rows, 'all', 'p50').meanA).toBeCloseTo(100 + (7 - 5 + 3 - 4) / 4, 6);
  });

  it('"<run-id>:1,3" selects runs; a run that does not exist is reported', () => {
    expect(parseSideRef('20261125T003150Z-naked-mon-small:1,3')).toEqual({ runId: '20261125T003150Z-naked-mon-small', runs: [1, 3] });
    expect(parseSideRef('results/x/')).toMatchObject({ runId: 'x', runs: undefined });
    const sel = selectRuns(runs(() => ({})), [2, 9]);
    expect(sel.runs.map((r) => r.run)).toEqual([2]);
    expect(sel.excluded).toEqual([{ run: 9, reasons: ['no such run in the test'] }]);
  });

  it('writes Markdown, HTML with the chart data and JSON', () => {
    const a = runs((_, n) => ({ sps: { p50: 900 + 10 * n } }));
    const b = runs((_, n) => ({ sps: { p50: 1400 + 10 * n } }));
    const c = compareSides(side('a', 'naked-mon', a), side('b', 'msa-1-1', b));
    const out = writeComparison(c, join(root, 'out'));
    expect(out.markdown).toMatch(/\| sps \| p50 of OK responses \| 902 ms \| 1402 ms \| \+500 ms \(\+55\.4%\) \| \[\d+ ms, \d+ ms\] \| \*\*significant\*\* \(worse\) \|/);
    expect(comparisonMarkdown(c)).toContain("Welch's t");
    const html = readFileSync(join(root, 'out', 'compare.html'), 'utf8');
    expect(html).toContain('"label":"sps p50","rel":55.43');
    expect(html).toBe(comparisonHtml(c));
    expect(existsSync(join(root, 'out', 'compare.json'))).toBe(true);
  });
});
