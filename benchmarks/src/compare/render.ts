// A comparison as Markdown (printed, compare.md) and as HTML with a chart of the relative
// differences and their intervals (compare.html, Chart.js inlined: the machine is offline).
import { chartJs, escapeHtml } from '../report/html';
import type { Comparison, ComparisonRow, SideSummary } from './compare';

export function formatValue(v: number | null, unit: string): string {
  if (v === null) return 'n/a';
  if (unit === '') return `${(100 * v).toFixed(2)}%`;
  const digits = v === 0 || Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 1 ? 2 : 4;
  return `${v.toFixed(digits)}${unit === '/s' ? '/s' : ` ${unit}`}`;
}

function interval(r: ComparisonRow): string {
  if (r.lo === null || r.hi === null) return `n/a (${r.note ?? 'no interval'})`;
  const u = r.def.unit;
  const pts = (v: number): string => (u === '' ? `${(100 * v).toFixed(2)} pt` : formatValue(v, u));
  return `[${pts(r.lo)}, ${pts(r.hi)}]`;
}

function diffText(r: ComparisonRow): string {
  if (r.diff === null) return 'n/a';
  const abs = r.def.unit === '' ? `${r.diff >= 0 ? '+' : ''}${(100 * r.diff).toFixed(2)} pt` : `${r.diff >= 0 ? '+' : ''}${formatValue(r.diff, r.def.unit)}`;
  return r.relative === null ? abs : `${abs} (${r.relative >= 0 ? '+' : ''}${(100 * r.relative).toFixed(1)}%)`;
}

function verdict(r: ComparisonRow): string {
  if (r.lo === null) return 'untestable';
  return r.significant ? `**significant** (${r.direction})` : 'not significant';
}

function sideLine(name: string, s: SideSummary): string {
  const excluded = s.excluded.length ? `; left out: ${s.excluded.map((e) => `run ${e.run} (${e.reasons.join('; ')})`).join(', ')}` : '';
  return `- **${name}** = \`${s.runId}\` (${s.variant}, profile ${s.profile}): valid runs ${s.runs.join(', ') || 'none'}${excluded}`;
}

export function comparisonRows(c: Comparison): string[][] {
  return c.rows.map((r) => [r.type, r.def.label, formatValue(r.meanA, r.def.unit), formatValue(r.meanB, r.def.unit), diffText(r), interval(r), verdict(r)]);
}

const HEAD = ['request', 'metric', 'A (mean)', 'B (mean)', 'B − A', '95% CI of B − A', 'verdict'];

export function comparisonMarkdown(c: Comparison): string {
  const significant = c.rows.filter((r) => r.significant);
  return [
    `# Compare: ${c.a.variant} (A) vs ${c.b.variant} (B)`,
    '',
    sideLine('A', c.a),
    sideLine('B', c.b),
    '',
    ...(c.hostWarning ? [`> **Warning:** ${c.hostWarning}.`, ''] : []),
    `Method: ${c.method}. Hold stage of each run; CPU per iteration = variant CPU seconds / iterations started; memory = mean PSS of the variant's processes.`,
    '',
    `${significant.length} of ${c.rows.length} differences are significant: ${significant.filter((r) => r.direction === 'better').length} better in B, ${significant.filter((r) => r.direction === 'worse').length} worse.`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
    ...comparisonRows(c).map((cells) => `| ${cells.join(' | ')} |`),
    '',
  ].join('\n');
}

/** Relative difference and its interval (% of A's mean) per row that has one: the chart's data. */
function chartData(c: Comparison): { label: string; rel: number; lo: number; hi: number; significant: boolean }[] {
  return c.rows
    .filter((r) => r.lo !== null && r.hi !== null && r.meanA)
    .map((r) => {
      const base = Math.abs(r.meanA!);
      return { label: `${r.type} ${r.def.metric}`, rel: (100 * r.diff!) / base, lo: (100 * r.lo!) / base, hi: (100 * r.hi!) / base, significant: r.significant };
    });
}

export function comparisonHtml(c: Comparison): string {
  const data = JSON.stringify(chartData(c)).replace(/</g, '\\u003c');
  const head = `<tr>${HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = comparisonRows(c)
    .map((cells, i) => `<tr${c.rows[i].significant ? ' class="sig"' : ''}>${cells.map((x) => `<td>${escapeHtml(x.replace(/\*\*/g, ''))}</td>`).join('')}</tr>`)
    .join('\n');
  const md = comparisonMarkdown(c).split('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(md[0].slice(2))}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:nth-child(-n+2){text-align:left}th{background:#f4f4f4}tr.sig{background:#fff3e0}.chart{max-width:1100px}</style></head>
<body>
<h1>${escapeHtml(md[0].slice(2))}</h1>
${md.slice(2, md.findIndex((l) => l.startsWith('|'))).filter(Boolean).map((l) => `<p>${escapeHtml(l.replace(/^(- |> )/, '').replace(/\*\*|`/g, ''))}</p>`).join('\n')}
<h2>Relative difference B − A (% of A's mean) with its 95% interval; orange = significant</h2>
<div class="chart"><canvas id="diffs" height="${Math.max(120, 14 * chartData(c).length)}"></canvas></div>
<h2>All metrics</h2>
<table>
${head}
${body}
</table>
<script>${chartJs()}</script>
<script>
const D = ${data};
new Chart(document.getElementById('diffs'), {
  type: 'bar',
  data: { labels: D.map((d) => d.label), datasets: [
    { label: '95% interval', data: D.map((d) => [d.lo, d.hi]), backgroundColor: D.map((d) => (d.significant ? '#ef6c00' : '#90a4ae')) },
    { type: 'scatter', label: 'B − A', data: D.map((d, i) => ({ x: d.rel, y: d.label })), backgroundColor: '#000', pointRadius: 3 },
  ] },
  options: { indexAxis: 'y', animation: false, scales: { x: { title: { display: true, text: '% of A' } } } },
});
</script>
</body></html>
`;
}
