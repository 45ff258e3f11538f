import { allTables, cell, requestTypeTable, tableI, tableII, tableIII } from '../src/report/tables';
import { tableMarkdown } from '../src/report/markdown';
import { cpuSeries, reportHtml, tableHtml } from '../src/report/html';
import type { Baseline } from '../src/baseline';
import { aggregatedFixture } from './support';

const runs = (rac: number[], spsHold: number[]) => rac.map((RAC, i) => ({ RAC, sps: { ...baseSps(), throughputHold: spsHold[i] } }));
function baseSps() {
  return { N: 9, OK: 9, KO: 0, unexpected: 0, FR: 0, EFR: 0, throughput: 1.5, throughputHold: 2, p50: 50, p95: 60, p99: 70 };
}

const results = [
  aggregatedFixture('msa-1-2', 'msa', { gateway: 1, leftover: 1, exercise: 2 }, runs([1, 1, 1], [5, 5, 5])),
  aggregatedFixture('mon-x2', 'monolith', { monolith: 2 }, runs([1, 0.9, 0.95], [4, 4.5, 5])),
  aggregatedFixture('msa-1-1', 'msa', { gateway: 1, leftover: 1, exercise: 1 }, runs([0.9, 0.92, 0.94], [3, 3, 3]), { valid: false }),
  aggregatedFixture('naked-mon', 'monolith', { monolith: 1 }, runs([0.5, 0.6, 0.55], [2, 2.2, 2.4])),
];
const baseline: Baseline = { file: 'results/grader-baseline/latest.json', points: [], best: { label: 'async, concurrency 2', gradingsPerS: 10 } };

describe('Table I', () => {
  const t = tableI(results, baseline)!;

  it('lists Naked MON, MON×N by replicas, then MSA-1-1, like the paper', () => {
    expect(t.columns).toEqual(['naked-mon', 'mon-x2', 'msa-1-1']);
  });

  it('has the paper rows plus the baseline ratio and validity, one cell per configuration', () => {
    const labels = t.rows.map((r) => r.label);
    expect(labels.slice(0, 14)).toEqual([
      'N (10 × VUs)', 'OK', 'KO', 'Request Acceptance Capability (RAC)', 'Failure Rate (FR)', 'Effective Failure Rate (EFR)',
      'FR (Req-SPS)', 'EFR (Req-SPS)', 'Response time < 800 ms', '800 ms ≤ response time < 1200 ms', '1200 ms ≤ response time',
      'Application Performance Index (Apdex)', 'System Throughput (ST, OK/s)', 'SPS throughput at peak (OK/s)',
    ]);
    expect(labels).toContain('SPS throughput / grader-only baseline');
    for (const r of t.rows) expect(r.cells).toHaveLength(3);
  });

  it('shows mean ± 95% CI, the ratio to the baseline and INVALID tests', () => {
    const rac = t.rows.find((r) => r.label.startsWith('Request Acceptance'))!;
    expect(rac.cells[0]).toMatch(/^55\.00% ±\d+\.\d\d$/);
    const ratio = t.rows.find((r) => r.label.startsWith('SPS throughput /'))!;
    expect(ratio.cells).toEqual(['22.0%', '45.0%', '30.0%']);
    const valid = t.rows.find((r) => r.label === 'Runs VALID')!;
    expect(valid.cells).toEqual(['3/3', '3/3', '2/3 INVALID']);
  });
});

describe('Table II and III', () => {
  it('Table II holds the MSA configurations by replicas', () => {
    expect(tableII(results, null)!.columns).toEqual(['msa-1-1', 'msa-1-2']);
    expect(tableII(results, null)!.rows.find((r) => r.label.startsWith('SPS throughput /'))!.cells).toEqual(['no baseline', 'no baseline']);
  });

  it('Table III has memory, CPU per request and energy marked absent here', () => {
    const t = tableIII(results, 'Energy: absent')!;
    expect(t.columns).toEqual(['naked-mon', 'mon-x2', 'msa-1-1', 'msa-1-2']);
    expect(t.rows.find((r) => r.label.startsWith('Energy'))!.cells).toEqual(['absent', 'absent', 'absent', 'absent']);
    expect(t.rows.find((r) => r.label.startsWith('CPU per successful request, variant'))!.cells[0]).toBe('20.00 ±0.00');
    expect(t.rows.find((r) => r.label.startsWith('CPU per successful request, machine'))!.cells[0]).toBe('50.00 ±0.00');
  });

  it('omits Table II without MSA results', () => {
    expect(allTables(results.filter((r) => r.meta.topology === 'monolith'), null).map((t) => t.id)).toEqual(['table-1', 'table-3']);
  });
});

describe('request-type table', () => {
  const login = (p95: number, ko: number) => ({ ok: 9, ko, unexpected: 0, p50: 40, p95, p99: p95 + 10, max: p95 + 20 });
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

  it('is left out for results without per-type latency', () => {
    expect(requestTypeTable(results)).toBeNull();
  });
});

describe('rendering', () => {
  it('Markdown has a header, a separator and one line per row', () => {
    const t = tableI(results, baseline)!;
    const lines = tableMarkdown(t).split('\n');
    expect(lines[2]).toBe('| Metrics | naked-mon | mon-x2 | msa-1-1 |');
    expect(lines[3]).toBe('|---|---:|---:|---:|');
    expect(lines.filter((l) => l.startsWith('| ')).length).toBe(t.rows.length + 1);
  });

  it('cell says n/a for a missing metric', () => {
    expect(cell(undefined, 'pct')).toBe('n/a');
  });

  it('HTML inlines Chart.js (no CDN) and escapes labels', () => {
    const html = reportHtml({ title: 't', intro: ['<x>'], tables: [tableI(results, baseline)!], buckets: [], cpu: [], breakdowns: [] });
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('Chart');
    expect(html).toContain('&lt;x&gt;');
    expect(tableHtml(tableI(results, baseline)!)).toContain('<th>naked-mon</th>');
  });

  it('CPU series stacks groups per second and leaves k6 out', () => {
    const s = cpuSeries('naked-mon', [
      { run: 1, tS: 0, epochMs: 1000, group: 'sg-monolith-0', role: 'monolith', pids: 1, cpuPct: 50, cpuS: 0, rssBytes: 1 },
      { run: 1, tS: 0, epochMs: 1000, group: 'k6', role: 'load', pids: 1, cpuPct: 30, cpuS: 0, rssBytes: 1 },
      { run: 1, tS: 1, epochMs: 2000, group: 'postgres', role: 'server', pids: 3, cpuPct: 10, cpuS: 0, rssBytes: 1 },
    ]);
    expect(s.t).toEqual([0, 1]);
    expect(s.groups).toEqual([
      { name: 'postgres', cpu: [0, 10] },
      { name: 'sg-monolith-0', cpu: [50, 0] },
    ]);
  });
});
