/**
 * Paper 001's four experiments on this machine: {monolith, MSA} × {no cache, Redis} × {S1, S2},
 * each a closed-model sweep (run-sweep.ts), then Tables 3 and 4 of the paper (latency slope in
 * ms/thread, mean throughput in req/s) with ours beside theirs, the two findings as verdicts, and
 * an HTML page with the curves (throughput and mean latency over threads).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineChartsPage } from '../report/html';
import { resultStamp, resultsDir } from '../paths';
import { classMarkdown, runSweep, type SweepClass, type SweepClassResult, type SweepOptions } from './run-sweep';
import { exclusive } from '../harness-lock';

/** The four presets, as the paper's experiments: architecture × cache. */
export const PAPER001_VARIANTS = [
  { variant: 'naked-mon', architecture: 'monolith', cache: false },
  { variant: 'mon-redis', architecture: 'monolith', cache: true },
  { variant: 'msa-1-2', architecture: 'msa', cache: false },
  { variant: 'msa-redis-1-2', architecture: 'msa', cache: true },
] as const;
type Arch = 'monolith' | 'msa';

/** Paper 001, Tables 3 and 4 (JMeter, 1..120 threads). null: not reported by the paper. */
export const PAPER001_TABLES: Record<'slope' | 'throughput', Record<'none' | 'redis', Record<SweepClass, Record<Arch, number | null>>>> = {
  slope: {
    none: { s1: { monolith: 22.8, msa: 28.6 }, s2: { monolith: 44.6, msa: 148.6 } },
    redis: { s1: { monolith: 23.5, msa: 34.6 }, s2: { monolith: null, msa: 67.4 } },
  },
  throughput: {
    none: { s1: { monolith: 39.6, msa: 33.1 }, s2: { monolith: 19.0, msa: 5.2 } },
    redis: { s1: { monolith: 39.2, msa: 27.4 }, s2: { monolith: null, msa: 12.4 } },
  },
};

export interface Paper001Cell {
  variant: string;
  architecture: Arch;
  cache: boolean;
  class: SweepClass;
  msPerThread: number | null;
  meanThroughput: number | null;
  valid: boolean;
  runId: string;
}

/** How much a cache changed a figure: (with − without) / without; null when one side is missing. */
export const relativeChange = (without: number | null, withCache: number | null) => (without === null || withCache === null || without === 0 ? null : (withCache - without) / without);

/**
 * The paper's findings as verdicts: (a) for S1 the cache barely matters (mean throughput within
 * ±`small` either way, both architectures); (b) for S2 in the MSA it matters a lot (throughput
 * up by more than `large`).
 */
export function paperFindings(cells: Paper001Cell[], small = 0.1, large = 0.5): string[] {
  const get = (arch: Arch, cache: boolean, k: SweepClass) => cells.find((c) => c.architecture === arch && c.cache === cache && c.class === k && c.valid)?.meanThroughput ?? null;
  const pct = (x: number | null) => (x === null ? 'n/a' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`);
  const s1 = (['monolith', 'msa'] as Arch[]).map((a) => relativeChange(get(a, false, 's1'), get(a, true, 's1')));
  const s2 = relativeChange(get('msa', false, 's2'), get('msa', true, 's2'));
  const a = s1.some((x) => x === null) ? 'not measured (a valid sweep is missing)' : s1.every((x) => Math.abs(x!) <= small) ? 'REPRODUCED' : 'NOT reproduced';
  const b = s2 === null ? 'not measured (a valid sweep is missing)' : s2 > large ? 'REPRODUCED' : 'NOT reproduced';
  return [
    `(a) the cache barely matters for S1 (|Δ throughput| ≤ ${100 * small} %): ${a} — monolith ${pct(s1[0]!)}, MSA ${pct(s1[1]!)}`,
    `(b) the cache matters a lot for S2 in the MSA (throughput up by > ${100 * large} %): ${b} — MSA ${pct(s2)}`,
  ];
}

const fmt = (x: number | null, d = 1) => (x === null ? '–' : x.toFixed(d));

/** Tables 3 and 4 in the paper's shape, ours beside theirs. */
export function paper001Tables(cells: Paper001Cell[]): string {
  const ours = (arch: Arch, cache: boolean, k: SweepClass, what: 'msPerThread' | 'meanThroughput') => {
    const c = cells.find((x) => x.architecture === arch && x.cache === cache && x.class === k);
    return c ? `${fmt(c[what])}${c.valid ? '' : ' ✗'}` : 'not run';
  };
  const table = (what: 'slope' | 'throughput', unit: string) => {
    const key = what === 'slope' ? 'msPerThread' : 'meanThroughput';
    const rows = (['none', 'redis'] as const).flatMap((cache) =>
      (['s1', 's2'] as SweepClass[]).map((k) => {
        const p = PAPER001_TABLES[what][cache][k];
        return `| ${cache === 'none' ? 'without cache' : 'with cache'} | ${k.toUpperCase()} | ${ours('monolith', cache === 'redis', k, key)} | ${ours('msa', cache === 'redis', k, key)} | ${fmt(p.monolith)} | ${fmt(p.msa)} |`;
      }),
    );
    return [`| | request class | monolith (ours) | MSA (ours) | monolith (paper) | MSA (paper) |`, '|---|---|---:|---:|---:|---:|', ...rows].join('\n') + `\n\n(${unit}; ✗ = the sweep had invalid steps, see its table)`;
  };
  return [
    '### Table 3 — latency linear coefficient (ms/thread)',
    '',
    table('slope', 'ms per thread, least squares over the valid steps'),
    '',
    '### Table 4 — mean throughput (requests/s)',
    '',
    table('throughput', 'mean over the valid steps of the hold-window throughput'),
    '',
    '### Findings of paper 001 on this machine',
    '',
    ...paperFindings(cells).map((l) => `- ${l}`),
  ].join('\n');
}

export function paper001Html(title: string, tablesMarkdown: string, results: SweepClassResult[]): string {
  const series = (k: SweepClass, y: 'throughput' | 'meanMs') =>
    results
      .filter((r) => r.class === k)
      .map((r) => ({ label: r.variant, data: r.analysis.rows.filter((row) => row.valid).map((row) => ({ x: row.vus, y: Number(row[y].toFixed(2)) })) }));
  const charts = (['s1', 's2'] as SweepClass[]).flatMap((k) => [
    { id: `${k}-x`, title: `${k.toUpperCase()}: throughput (req/s) over threads`, datasets: series(k, 'throughput') },
    { id: `${k}-r`, title: `${k.toUpperCase()}: mean latency (ms) over threads`, datasets: series(k, 'meanMs') },
  ]);
  return lineChartsPage(title, charts, { label: 'threads (VUs)' }, tablesMarkdown);
}

export interface Paper001Run {
  dir: string;
  markdown: string;
  htmlFile: string;
  markdownFile: string;
}

/** Every experiment, one after the other (each variant brought up cold), then the report. */
export function runPaper001(opts: Omit<SweepOptions, 'variant' | 'runId'> & { variants?: string[] }): Promise<Paper001Run> {
  return exclusive('bench paper001', () => runPaper001Now(opts));
}

async function runPaper001Now(opts: Omit<SweepOptions, 'variant' | 'runId'> & { variants?: string[] }): Promise<Paper001Run> {
  const stamp = resultStamp();
  const dir = join(resultsDir(), `${stamp}-paper001-${opts.profile}`);
  mkdirSync(dir, { recursive: true });
  const experiments = PAPER001_VARIANTS.filter((v) => !opts.variants || opts.variants.includes(v.variant));
  const cells: Paper001Cell[] = [];
  const results: SweepClassResult[] = [];
  for (const e of experiments) {
    const run = await runSweep({ ...opts, variant: e.variant, runId: `${stamp}-paper001-${e.variant}-${opts.profile}` });
    for (const r of run.results) {
      results.push(r);
      cells.push({
        variant: e.variant,
        architecture: e.architecture,
        cache: e.cache,
        class: r.class,
        msPerThread: r.analysis.fit?.msPerThread ?? null,
        meanThroughput: r.analysis.meanThroughput,
        valid: r.analysis.valid,
        runId: run.runId,
      });
    }
  }
  const tables = paper001Tables(cells);
  const markdown = [`## Paper 001 on this machine (${opts.profile})`, tables, '## Per experiment', ...results.map(classMarkdown)].join('\n\n') + '\n';
  const markdownFile = join(dir, 'paper001.md');
  const htmlFile = join(dir, 'paper001.html');
  writeFileSync(markdownFile, markdown);
  writeFileSync(join(dir, 'paper001.json'), JSON.stringify({ cells, results }, null, 2));
  writeFileSync(htmlFile, paper001Html(`Paper 001 on this machine (${opts.profile})`, markdown, results));
  return { dir, markdown, htmlFile, markdownFile };
}
