/**
 * breakdown.html: a stacked bar per variant (median band and p90–p99 band) drawn by
 * Chart.js, whose UMD build is inlined from node_modules so the page works offline.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { VariantBreakdown } from '../attribution/aggregate';
import { COMPONENTS } from '../attribution/components';

const PALETTE = [
  '#9e9e9e', '#3f51b5', '#009688', '#4caf50', '#ff9800', '#795548', '#607d8b',
  '#e91e63', '#ffc107', '#9c27b0', '#00bcd4', '#f44336', '#000000',
];

export function chartConfig(variants: VariantBreakdown[]) {
  const labels = variants.flatMap((v) => [`${v.variant} median`, `${v.variant} p90–p99`]);
  const datasets = COMPONENTS.map((c, i) => ({
    label: c,
    data: variants.flatMap((v) => [round(v.medianBand[c]), round(v.tailBand[c])]),
    backgroundColor: PALETTE[i % PALETTE.length],
  })).filter((d) => d.data.some((x) => x > 0));
  return {
    type: 'bar',
    data: { labels, datasets },
    options: {
      animation: false,
      plugins: { title: { display: true, text: 'SPS latency by component (ms, critical path)' } },
      scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'ms' } } },
    },
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/** chart.js's exports map hides dist/*, so locate the UMD build next to its CommonJS entry. */
export function chartJsUmdPath(): string {
  return join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
}

export function renderChartHtml(title: string, variants: VariantBreakdown[]): string {
  const chartJs = readFileSync(chartJsUmdPath(), 'utf8');
  const config = JSON.stringify(chartConfig(variants)).replace(/</g, '\\u003c');
  const escapedTitle = title.replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapedTitle}</title>
<style>body{font-family:sans-serif;margin:2em}#wrap{max-width:1100px;height:600px}</style></head>
<body><h1>${escapedTitle}</h1><div id="wrap"><canvas id="chart"></canvas></div>
<script>${chartJs}</script>
<script>new Chart(document.getElementById('chart'), ${config});</script>
</body></html>
`;
}
