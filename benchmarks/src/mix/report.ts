/** The mix's tables (one per variant, then pattern vs baseline per p) and its curves. */
import { lineChartsPage } from '../report/html';
import { busiest, winners, type MixStepRow, type MixTypeFigures, type MixVariantResult } from './analyse';
import type { PatternPlan } from './patterns';

const f = (x: number | null, d = 1) => (x === null ? '–' : x.toFixed(d));
const figures = (t: MixTypeFigures) => `${f(t.throughput)} | ${f(t.meanMs)} | ${f(t.p95Ms)} | ${t.errorRate === null ? '–' : `${f(100 * t.errorRate, 1)} %`}`;

/** Groups worth a column: the variant's services and the servers that worked (> 0.02 cores somewhere). */
function cpuColumns(rows: MixStepRow[]): string[] {
  const all = new Set(rows.flatMap((r) => Object.keys(r.cpuCores)));
  return [...all].filter((g) => g !== 'machine' && g !== 'harness' && rows.some((r) => (r.cpuCores[g] ?? 0) > 0.02)).sort();
}

export function variantTable(r: MixVariantResult): string {
  const cpu = cpuColumns(r.rows);
  return [
    `### ${r.variant} (${r.role})${r.problems.length ? ' — ' + r.problems.join('; ') : ''}`,
    '',
    `| p(r1) | r1 X (/s) | r1 mean (ms) | r1 p95 (ms) | r1 errors | r2 X (/s) | r2 mean (ms) | r2 p95 (ms) | r2 errors | X total (/s) | ${cpu.map((g) => `${g} (cores)`).join(' | ')} |`,
    `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${cpu.map(() => '---:').join('|')}|`,
    ...r.rows.map((row) => `| ${row.p} | ${figures(row.r1)} | ${figures(row.r2)} | ${f(row.throughput)} | ${cpu.map((g) => f(row.cpuCores[g] ?? 0, 2)).join(' | ')} |`),
  ].join('\n');
}

/** Per p: which variant carried more, by how much, and each one's busiest process (where the bottleneck sits). */
export function comparisonTable(results: MixVariantResult[]): string {
  const [a, b] = results;
  if (!a || !b) return '';
  const w = winners({ [a.variant]: a.rows, [b.variant]: b.rows });
  const where = (row: MixStepRow | undefined) => {
    const x = row ? busiest(row) : null;
    return x ? `${x.group} ${f(x.cores, 2)}` : '–';
  };
  return [
    `### ${a.variant} vs ${b.variant}, per p(r1)`,
    '',
    `| p(r1) | X ${a.variant} | X ${b.variant} | ratio | more throughput | busiest in ${a.variant} (cores) | busiest in ${b.variant} (cores) |`,
    '|---:|---:|---:|---:|---|---|---|',
    ...w.map((x, i) => `| ${x.p} | ${f(a.rows[i]?.throughput ?? null)} | ${f(b.rows[i]?.throughput ?? null)} | ${x.ratio === null ? '–' : `${x.ratio.toFixed(2)}×`} | ${x.best} | ${where(a.rows[i])} | ${where(b.rows[i])} |`),
  ].join('\n');
}

export function mixMarkdown(plan: PatternPlan, results: MixVariantResult[]): string {
  const m = results[0]?.mix;
  return [
    `## Request mix: ${plan.pattern} (paper 003)`,
    '',
    `r1 = ${plan.r1}; r2 = ${plan.r2}. Each p(r1): ${m?.vus} users in a closed loop without think time for ${m?.holdS} s (after ${m?.rampS} s of ramp); figures over that hold window; X = answered per second; errors = share without the expected answer; CPU = cores each process used in the window.`,
    '',
    comparisonTable(results),
    ...results.flatMap((r) => ['', variantTable(r)]),
  ].join('\n') + '\n';
}

export function mixHtml(plan: PatternPlan, results: MixVariantResult[], markdown: string): string {
  const line = (label: string, rows: MixStepRow[], y: (r: MixStepRow) => number | null) => ({
    label,
    data: rows.map((r) => ({ x: r.p, y: y(r) })).filter((pt) => pt.y !== null),
  });
  const charts = [
    { id: 'x', title: 'Throughput (answered/s) over p(r1)', datasets: results.map((r) => line(r.variant, r.rows, (row) => row.throughput)) },
    { id: 'rt', title: 'Mean response time (ms) per request type over p(r1)', datasets: results.flatMap((r) => [line(`${r.variant} r1`, r.rows, (row) => row.r1.meanMs), line(`${r.variant} r2`, r.rows, (row) => row.r2.meanMs)]) },
    ...results.map((r, i) => ({
      id: `cpu-${i}`,
      title: `CPU per process (cores) over p(r1): ${r.variant}`,
      datasets: cpuColumns(r.rows).map((g) => line(g, r.rows, (row) => row.cpuCores[g] ?? 0)),
    })),
  ];
  const title = `Request mix: ${plan.pattern} — ${results.map((r) => r.variant).join(' vs ')}`;
  return lineChartsPage(title, charts, { label: 'p(r1)', min: 0, max: 1 }, markdown);
}
