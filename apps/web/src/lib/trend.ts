/**
 * The trend GET /ops/trend answers (the console's contract, Trend): one preset's tests over time,
 * their figures in the units `bench compare` gives them, and the link to each run's folder.
 */
import type { MetricDef, Trend, TrendPoint } from '@shellgrade/console-contract';
import { formatValue } from './compare';

export type { Trend, TrendPoint };

/** The figures of a point, in the table's column order. */
export const TREND_FIGURES = ['throughput', 'spsP50', 'spsP95', 'spsP99', 'koShare', 'cpuSPerIteration'] as const;
export type TrendFigure = (typeof TREND_FIGURES)[number];

/** One figure of a point in its metric's unit ("1203.4 ms", "0.00 %", "45.2 ms" of CPU). */
export const formatFigure = (p: TrendPoint, key: TrendFigure, def: MetricDef): string => formatValue(p[key], def);

/** "VALID (1/1)", "INVALID (0/1, figures from INVALID runs)". */
export function validityText(p: TrendPoint): string {
  const from = p.figuresFrom === 'all' ? ', figures from INVALID runs' : p.figuresFrom === 'none' ? ', no run recorded' : '';
  return `${p.valid ? 'VALID' : 'INVALID'} (${p.validRuns}/${p.runs}${from})`;
}

export const speedText = (p: TrendPoint): string => (p.speed ? `scrypt 2^14 ${p.speed.scryptN14Ms} ms, spawn ${p.speed.spawnMs} ms` : 'not recorded');

/** The run's folder in the console (an index of its report files, GET /ops/runs/<id>/). */
export const runHref = (runId: string): string => `/ops/runs/${encodeURIComponent(runId)}/`;

/** The chart's x labels: the start date of each run, short ("11-27 01:20"), its id when it has none. */
export const pointLabel = (p: TrendPoint): string => (p.startedAt ? p.startedAt.slice(5, 16).replace('T', ' ') : p.runId.slice(0, 16));

/** The trend page's query string for a preset, a count and a profile. */
export function trendQuery(preset: string, last: number, profile: string): string {
  const q = new URLSearchParams({ preset });
  if (last !== 10) q.set('last', String(last));
  if (profile) q.set('profile', profile);
  return q.toString();
}
