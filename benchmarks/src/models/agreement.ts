// Agreement of predictions with measurements over a set of runs, as paper 003 reports it:
// Spearman's ρ of the rankings, MAE and min–max-normalised MAE (MAE / (max − min) of the measured).
import { mean, sampleRankCorrelation } from 'simple-statistics';
import type { Comparison } from './compare';

export interface Agreement {
  metric: string;
  /** Runs where both sides had a figure. */
  n: number;
  spearmanRho: number | null;
  mae: number | null;
  /** MAE / (max − min of the measured values); null when they are all equal. */
  normalizedMae: number | null;
}

export function agreement(metric: string, pairs: { predicted: number; measured: number }[]): Agreement {
  const n = pairs.length;
  if (n === 0) return { metric, n, spearmanRho: null, mae: null, normalizedMae: null };
  const measured = pairs.map((p) => p.measured);
  const mae = mean(pairs.map((p) => Math.abs(p.predicted - p.measured)));
  const range = Math.max(...measured) - Math.min(...measured);
  const rho = n >= 2 ? sampleRankCorrelation(pairs.map((p) => p.predicted), measured) : null;
  return { metric, n, spearmanRho: rho !== null && Number.isFinite(rho) ? rho : null, mae, normalizedMae: range > 0 ? mae / range : null };
}

/** One agreement line per metric present in the comparisons (CPU rows per station included). */
export function agreementOver(comparisons: Comparison[]): Agreement[] {
  const pairs = new Map<string, { predicted: number; measured: number }[]>();
  for (const c of comparisons) {
    for (const r of c.rows) {
      if (!pairs.has(r.metric)) pairs.set(r.metric, []);
      if (r.predicted !== null && r.measured !== null) pairs.get(r.metric)!.push({ predicted: r.predicted, measured: r.measured });
    }
  }
  return [...pairs].map(([metric, p]) => agreement(metric, p));
}

const fmt = (v: number | null, digits = 3) => (v === null ? 'n/a' : v.toFixed(digits));

export function agreementMarkdown(rows: Agreement[]): string {
  return [
    '| metric | runs | Spearman ρ | MAE | normalised MAE |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((a) => `| ${a.metric} | ${a.n} | ${fmt(a.spearmanRho, 2)} | ${fmt(a.mae)} | ${a.normalizedMae === null ? 'n/a' : `${(a.normalizedMae * 100).toFixed(1)} %`} |`),
  ].join('\n') + '\n';
}
