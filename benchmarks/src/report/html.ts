// Self-contained HTML report: tables plus Chart.js charts, with Chart.js's UMD build read from
// node_modules and inlined (the machine is offline; no CDN).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { underTest, type ResourceSample } from '../resource-sampler';
import type { SuiteRun } from '../suites/analyse';
import type { Table } from './tables';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A cell naming an HTML file (k6's per-run report) becomes a link to it. */
function cellHtml(c: string): string {
  return /^[^\s<>"]+\.html$/.test(c) ? `<a href="${escapeHtml(c)}">${escapeHtml(c)}</a>` : escapeHtml(c);
}

export function tableHtml(t: Table): string {
  const head = `<tr><th>Metrics</th>${t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
  const body = t.rows.map((r) => `<tr><th>${escapeHtml(r.label)}</th>${r.cells.map((c) => `<td>${cellHtml(c)}</td>`).join('')}</tr>`).join('\n');
  const notes = t.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  return `<h2 id="${t.id}">${escapeHtml(t.title)}</h2>\n<table>\n${head}\n${body}\n</table>\n<ul class="notes">${notes}</ul>`;
}

export interface BucketSeries {
  label: string;
  lt800: number;
  b800_1200: number;
  ge1200: number;
}

export interface CpuSeries {
  label: string;
  /** seconds since the first sample -> CPU% per group (stacked like the paper's Fig. 3) */
  t: number[];
  groups: { name: string; cpu: number[] }[];
}

/** Per configuration: CPU% of each process group per second over the whole test (k6 and the machine total excluded). */
export function cpuSeries(label: string, samples: ResourceSample[]): CpuSeries {
  const own = samples.filter(underTest);
  if (own.length === 0) return { label, t: [], groups: [] };
  const t0 = Math.min(...own.map((s) => s.epochMs));
  const ticks = [...new Set(own.map((s) => s.epochMs))].sort((a, b) => a - b);
  const index = new Map(ticks.map((t, i) => [t, i]));
  const names = [...new Set(own.map((s) => s.group))].sort();
  const groups = names.map((name) => ({ name, cpu: new Array<number>(ticks.length).fill(0) }));
  const byName = new Map(groups.map((g) => [g.name, g]));
  for (const s of own) byName.get(s.group)!.cpu[index.get(s.epochMs)!] = s.cpuPct;
  return { label, t: ticks.map((t) => Math.round((t - t0) / 1000)), groups };
}

export interface SuiteSeries {
  label: string;
  /** Window starts (s from the start of the load). */
  t: number[];
  p95: (number | null)[];
  okPerS: number[];
  /** Mean PSS per variant process and window. */
  memory: { name: string; mib: (number | null)[] }[];
}

/** p95, OK/s and PSS per variant process over a suite run, window by window. */
export function suiteSeries(label: string, r: SuiteRun): SuiteSeries {
  return {
    label,
    t: r.timeline.map((w) => w.fromS),
    p95: r.timeline.map((w) => w.p95),
    okPerS: r.timeline.map((w) => Number(w.okPerS.toFixed(2))),
    memory: r.memory.groups.map((g) => ({ name: g.name, mib: g.bytes.map((b) => (b === null ? null : Number((b / 2 ** 20).toFixed(1)))) })),
  };
}

/** One line chart of a page: x/y points per labelled series. */
export interface LineChart {
  id: string;
  title: string;
  datasets: { label: string; data: { x: number; y: number | null }[] }[];
}

/**
 * A self-contained page of line charts over one numeric x axis (Chart.js inlined: it opens from
 * disk, offline), then the Markdown tables it illustrates: the sweep's and the mix's reports.
 */
export function lineChartsPage(title: string, charts: LineChart[], x: { label: string; min?: number; max?: number }, markdown: string): string {
  const xScale = { type: 'linear', title: { display: true, text: x.label }, ...(x.min !== undefined ? { min: x.min } : {}), ...(x.max !== undefined ? { max: x.max } : {}) };
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:1200px}pre{background:#f7f7f7;padding:1em;overflow:auto;font-size:12px}.chart{max-width:1100px;margin:1em 0}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${charts.map((c) => `<h2>${escapeHtml(c.title)}</h2><div class="chart"><canvas id="${c.id}" height="90"></canvas></div>`).join('\n')}
<h2>Tables (Markdown)</h2><pre>${escapeHtml(markdown)}</pre>
<script>${chartJs()}</script>
<script>
const charts = ${JSON.stringify(charts).replace(/</g, '\\u003c')};
const xScale = ${JSON.stringify(xScale)};
for (const c of charts) {
  new Chart(document.getElementById(c.id), { type: 'line', data: { datasets: c.datasets.map((d) => ({ ...d, showLine: true })) },
    options: { parsing: true, scales: { x: xScale, y: { beginAtZero: true } } } });
}
</script></body></html>
`;
}

/** Chart.js inlined: the UMD build sits beside the package's CommonJS entry (it is not in its exports map). */
export function chartJs(): string {
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;margin:1em 0;font-size:13px}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}tr th:first-child{text-align:left}th{background:#f4f4f4}
.notes{font-size:12px;color:#555}.chart{max-width:1100px;margin:1em 0}pre{background:#f7f7f7;padding:1em;overflow:auto;font-size:12px}`;

export function reportHtml(input: {
  title: string;
  intro: string[];
  tables: Table[];
  buckets: BucketSeries[];
  cpu: CpuSeries[];
  suites?: SuiteSeries[];
  breakdowns: { label: string; markdown: string | null; json: unknown | null }[];
}): string {
  const suites = input.suites ?? [];
  const data = JSON.stringify({ buckets: input.buckets, cpu: input.cpu, suites }).replace(/</g, '\\u003c');
  const cpuCanvases = input.cpu
    .map((c, i) => `<h3>${escapeHtml(c.label)}</h3><div class="chart"><canvas id="cpu-${i}" height="110"></canvas></div>`)
    .join('\n');
  const breakdown = input.breakdowns.length
    ? input.breakdowns
        .map((b) => `<h3>${escapeHtml(b.label)}</h3>${b.markdown ? `<pre>${escapeHtml(b.markdown)}</pre>` : ''}${b.json && !b.markdown ? `<pre>${escapeHtml(JSON.stringify(b.json, null, 2))}</pre>` : ''}`)
        .join('\n')
    : '<p>No trace breakdown yet: run <code>npm run traces -- &lt;run-id&gt;</code> (it writes results/&lt;run-id&gt;/breakdown.json).</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(input.title)}</h1>
${input.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${input.tables.map(tableHtml).join('\n')}
<h2>Response-time buckets of successful requests per configuration</h2>
<div class="chart"><canvas id="buckets" height="90"></canvas></div>
<h2>CPU usage over time per configuration (stacked per process group, 100% = one core; like the paper's Fig. 3)</h2>
${cpuCanvases}
${suites.length ? `<h2 id="suites">Suites over time: p95 and OK/s, PSS of each variant process</h2>\n${suites.map((x, i) => `<h3>${escapeHtml(x.label)}</h3><div class="chart"><canvas id="suite-lat-${i}" height="90"></canvas></div><div class="chart"><canvas id="suite-mem-${i}" height="90"></canvas></div>`).join('\n')}` : ''}
<h2 id="breakdown">Where latency lives (trace breakdown)</h2>
${breakdown}
<script>${chartJs()}</script>
<script>
const DATA = ${data};
new Chart(document.getElementById('buckets'), {
  type: 'bar',
  data: {
    labels: DATA.buckets.map((b) => b.label),
    datasets: [
      { label: '< 800 ms', data: DATA.buckets.map((b) => 100 * b.lt800), backgroundColor: '#2e7d32' },
      { label: '800–1200 ms', data: DATA.buckets.map((b) => 100 * b.b800_1200), backgroundColor: '#f9a825' },
      { label: '≥ 1200 ms', data: DATA.buckets.map((b) => 100 * b.ge1200), backgroundColor: '#c62828' },
    ],
  },
  options: { animation: false, scales: { x: { stacked: true }, y: { stacked: true, max: 100, title: { display: true, text: '% of successful requests' } } } },
});
DATA.cpu.forEach((c, i) => {
  new Chart(document.getElementById('cpu-' + i), {
    type: 'line',
    data: { labels: c.t, datasets: c.groups.map((g) => ({ label: g.name, data: g.cpu, fill: true, pointRadius: 0, borderWidth: 1 })) },
    options: { animation: false, scales: { x: { title: { display: true, text: 's' } }, y: { stacked: true, title: { display: true, text: 'CPU %' } } } },
  });
});
DATA.suites.forEach((x, i) => {
  new Chart(document.getElementById('suite-lat-' + i), {
    type: 'line',
    data: { labels: x.t, datasets: [
      { label: 'p95 of OK requests (ms)', data: x.p95, yAxisID: 'ms', pointRadius: 0, borderWidth: 1.5, borderColor: '#c62828', spanGaps: false },
      { label: 'OK/s', data: x.okPerS, yAxisID: 'rate', pointRadius: 0, borderWidth: 1, borderColor: '#1565c0' },
    ] },
    options: { animation: false, scales: { x: { title: { display: true, text: 's from the start of the load' } }, ms: { position: 'left', title: { display: true, text: 'ms' } }, rate: { position: 'right', title: { display: true, text: 'OK/s' }, grid: { drawOnChartArea: false } } } },
  });
  new Chart(document.getElementById('suite-mem-' + i), {
    type: 'line',
    data: { labels: x.t, datasets: x.memory.map((g) => ({ label: g.name, data: g.mib, pointRadius: 0, borderWidth: 1 })) },
    options: { animation: false, scales: { x: { title: { display: true, text: 's from the start of the load' } }, y: { title: { display: true, text: 'PSS (MiB)' } } } },
  });
});
</script>
</body></html>
`;
}
