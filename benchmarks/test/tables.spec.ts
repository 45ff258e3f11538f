import { allTables, cell, requestTypeTable, runsTable, tableI, tableII, tableIII } from '../src/report/tables';
import { tableMarkdown } from '../src/report/markdown';
import { cpuSeries, reportHtml, tableHtml } from '../src/report/html';
import type { Baseline } from '../src/baseline';
import type { Aggregated } from '../src/types';
import { aggregatedFixture, smokePaper } from './support';

const runs = (rac: number[], spsHold: number[]) => rac.map((RAC, i) => ({ RAC, sps: { ...smokePaper().sps, throughputHold: spsHold[i] } }));

const baseline: Baseline = { file: 'grader-baseline.json', points: [], best: { label: 'async bwrap, concurrency 2', gradingsPerS: 10, isolation: 'bwrap' } };
const withBaseline = (a: Aggregated): Aggregated => ({ ...a, meta: { ...a.meta, baseline } });

const results = [
  withBaseline(aggregatedFixture('msa-1-2', 'msa', { gateway: 1, leftover: 1, exercise: 2 }, runs([1, 1, 1], [5, 5, 5]))),
  withBaseline(aggregatedFixture('mon-x2', 'monolith', { monolith: 2 }, runs([1, 0.9, 0.95], [4, 4.5, 5]))),
  withBaseline(aggregatedFixture('msa-1-1', 'msa', { gateway: 1, leftover: 1, exercise: 1 }, runs([0.9, 0.92, 0.94], [3, 3, 3]), { valid: false })),
  withBaseline(aggregatedFixture('naked-mon', 'monolith', { monolith: 1 }, runs([0.5, 0.6, 0.55], [2, 2.2, 2.4]))),
];

describe('Table I', () => {
  const t = tableI(results)!;

  it('lists Naked MON, MON×N by replicas, then MSA-1-1, like the paper', () => {
    expect(t.columns).toEqual(['naked-mon', 'mon-x2', 'msa-1-1']);
  });

  it('has the paper rows with efr_paper and ko_rate named apart, KO causes, audit, crashes and valid/asked', () => {
    const labels = t.rows.map((r) => r.label);
    expect(labels.slice(0, 9)).toEqual([
      'N (10 × VUs)', 'OK', 'KO', 'KO causes (mean count per run)', 'Request Acceptance Capability (RAC)', 'Failure Rate (FR)',
      'Effective Failure Rate (EFR = (N − OK)/N, as published: efr_paper)', 'KO / N (ko_rate)', 'FR (Req-SPS)',
    ]);
    for (const l of ['SPS throughput at peak / sandboxed grader-only baseline', 'Zero-loss audit (per run)', 'Crashes (per run)', 'Runs VALID / asked']) expect(labels).toContain(l);
    for (const r of t.rows) expect(r.cells).toHaveLength(3);
  });

  it('shows mean ± 95% CI over valid runs, the ratio to the run\'s own baseline', () => {
    const rac = t.rows.find((r) => r.label.startsWith('Request Acceptance'))!;
    expect(rac.cells[0]).toMatch(/^55\.00% ±\d+\.\d\d$/);
    const ratio = t.rows.find((r) => r.label.startsWith('SPS throughput at peak /'))!;
    expect(ratio.cells.slice(0, 2)).toEqual(['22.0%', '45.0%']);
  });

  it('a configuration with fewer valid runs than asked shows n/a (k/n valid), never a mean', () => {
    for (const r of t.rows.filter((x) => !/audit|Crashes|Runs VALID/.test(x.label))) expect(r.cells[2]).toBe('n/a (2/3 valid)');
    expect(t.rows.find((r) => r.label === 'Runs VALID / asked')!.cells).toEqual(['3/3', '3/3', '2/3 INVALID']);
  });
});

describe('valid-only averages', () => {
  it('the mean leaves INVALID runs out', () => {
    // Run 1 of 3 INVALID: the mean is over runs 2 and 3 only.
    const a = aggregatedFixture('x', 'msa', {}, [{ RAC: 0.1 }, { RAC: 0.9 }, { RAC: 0.7 }], { valid: false });
    expect(a.paper['stages.hold.RAC'].mean).toBeCloseTo(0.8);
    expect(a.paper['stages.hold.RAC'].n).toBe(2);
  });

  it('a short test (fewer runs done than asked) says so too', () => {
    const a = aggregatedFixture('x', 'msa', {}, [{ RAC: 1 }], { runsAsked: 3 });
    expect(tableII([a])!.rows[0].cells[0]).toBe('n/a (1/3 valid)');
  });
});

describe('Table II and III, runs', () => {
  it('Table II holds the MSA configurations by replicas; no baseline when the run copied none', () => {
    const noBaseline = results.map((a) => ({ ...a, meta: { ...a.meta, baseline: null } }));
    expect(tableII(noBaseline)!.columns).toEqual(['msa-1-1', 'msa-1-2']);
    expect(tableII(noBaseline)!.rows.find((r) => r.label.startsWith('SPS throughput at peak /'))!.cells).toEqual(['no baseline', 'no baseline']);
  });

  it('Table III: PSS memory, CPU per process and residual, energy labelled an estimate, RAPL absent', () => {
    const t = tableIII(results, 'Energy measured: absent')!;
    expect(t.columns).toEqual(['naked-mon', 'mon-x2', 'msa-1-1', 'msa-1-2']);
    const row = (start: string) => t.rows.find((r) => r.label.startsWith(start))!;
    expect(row('Energy measured').cells).toEqual(['absent', 'absent', 'absent', 'absent']);
    expect(row('Energy ESTIMATE: mean power').cells[2]).toBe('n/a (2/3 valid)');
    expect(row('Energy ESTIMATE: mean power').cells[0]).toBe('3.20 ±0.00');
    expect(row('CPU-seconds per run, per process group').cells[0]).toBe('sg-monolith-0 30.0, postgres 10.0');
    expect(row('CPU residual').cells[0]).toBe('60.00% ±0.00');
    expect(row('CPU per successful request, variant').cells[0]).toBe('20.00 ±0.00');
    expect(t.notes.join(' ')).toMatch(/ESTIMATE, not a measurement/);
  });

  it('the runs table lists every run, INVALID ones with their reasons, and links k6\'s HTML report', () => {
    const t = runsTable(results)!;
    const invalid = t.rows.find((r) => r.label === 'msa-1-1 run 1')!;
    expect(invalid.cells[0]).toBe('INVALID: k6 dropped 3 iterations');
    expect(invalid.cells[5]).toBe('20261122T000000Z-msa-1-1-small/k6-dashboard-run-1.html');
    expect(tableHtml({ ...t, rows: [{ label: 'x', cells: ['a/k6-dashboard-run-1.html'] }] })).toContain('<a href="a/k6-dashboard-run-1.html">');
  });

  it('omits Table II without MSA results', () => {
    expect(allTables(results.filter((r) => r.meta.topology === 'monolith')).map((t) => t.id)).toEqual(['table-1', 'table-ramp', 'table-3', 'table-runs']);
  });
});

describe('request-type table', () => {
  const login = (p95: number, ko: number) => ({ ok: 9, ko, p50: 40, p95, p99: p95 + 10, max: p95 + 20 });
  const withTypes = (variant: string, p95s: number[]) =>
    aggregatedFixture(variant, 'msa', { gateway: 1, leftover: 1, exercise: 4 }, p95s.map((p95) => ({ perType: { login: login(p95, 1) } })));

  it('puts each request type’s OK percentiles and KO side by side', () => {
    const t = requestTypeTable([withTypes('msa-1-4', [100, 300])])!;
    expect(t.columns).toEqual(['msa-1-4']);
    expect(t.rows.find((r) => r.label.startsWith('login: OK'))!.cells).toEqual(['40 / 200 / 210 / 220']);
    expect(t.rows.find((r) => r.label === 'login: KO')!.cells).toEqual(['1 ±0']);
    expect(t.rows.find((r) => r.label.startsWith('sps: OK'))!.cells).toEqual(['n/a / n/a / n/a / n/a']);
    expect(t.rows.find((r) => r.label.startsWith('feedback by reply'))!.cells).toEqual(['n/a / n/a / n/a']);
  });

  it('shows the submissions refused with 503 + Retry-After only when a run had some', () => {
    const feedback = (refused: number) => ({ reply: 9, polled: 0, missing: 0, p50: 100, p95: 900, max: 950, polls: 0, pollsFailed: 0, refused, retryWaitP95S: 4 });
    const runs = (refused: number) =>
      aggregatedFixture('naked-mon-async-admission', 'monolith', { monolith: 1 }, [2, 4].map(() => ({ perType: { login: login(100, 0) }, feedback: feedback(refused) })));
    const row = (t: ReturnType<typeof requestTypeTable>) => t!.rows.find((r) => r.label.startsWith('SPS refused with 503'));
    expect(row(requestTypeTable([runs(6)]))!.cells).toEqual(['6 / 4']);
    expect(row(requestTypeTable([runs(0)]))).toBeUndefined();
  });

  it('is left out for results without per-type latency', () => {
    expect(requestTypeTable(results)).toBeNull();
  });
});

describe('rendering', () => {
  it('Markdown has a header, a separator and one line per row', () => {
    const t = tableI(results)!;
    const lines = tableMarkdown(t).split('\n');
    expect(lines[2]).toBe('| Metrics | naked-mon | mon-x2 | msa-1-1 |');
    expect(lines[3]).toBe('|---|---:|---:|---:|');
    expect(lines.filter((l) => l.startsWith('| ')).length).toBe(t.rows.length + 1);
  });

  it('cell says n/a for a missing metric', () => {
    expect(cell(undefined, 'pct')).toBe('n/a');
  });

  it('HTML inlines Chart.js (no CDN) and escapes labels', () => {
    const html = reportHtml({ title: 't', intro: ['<x>'], tables: [tableI(results)!], buckets: [], cpu: [], breakdowns: [] });
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('Chart');
    expect(html).toContain('&lt;x&gt;');
    expect(tableHtml(tableI(results)!)).toContain('<th>naked-mon</th>');
  });

  it('CPU series stacks groups per second and leaves k6 out', () => {
    const sample = (epochMs: number, group: string, cpuPct: number) => ({ run: 1, tS: 0, epochMs, group, role: group === 'k6' ? 'load' : 'service', pids: 1, cpuPct, cpuS: 0, rssBytes: 1, pssBytes: 1, cpuSource: 'proc' as const });
    const s = cpuSeries('naked-mon', [sample(1000, 'sg-monolith-0', 50), sample(1000, 'k6', 30), sample(2000, 'postgres', 10)]);
    expect(s.t).toEqual([0, 1]);
    expect(s.groups).toEqual([
      { name: 'postgres', cpu: [0, 10] },
      { name: 'sg-monolith-0', cpu: [50, 0] },
    ]);
  });
});
