/**
 * The N-way comparison GET /ops/compare answers: one `bench compare` result (compare.json) per
 * run against the baseline, folded into one table — a row per request type and metric, a
 * column per run. The answer's types are the console's contract (@shellgrade/console-contract),
 * declared once for the harness that writes compare.json, the server and this app.
 */
import type { Comparison, ComparisonRow, MachineSpeed, MetricDef, NWayComparison, SideSummary } from '@shellgrade/console-contract';

export type { Comparison, ComparisonRow, MachineSpeed, MetricDef, NWayComparison, SideSummary };

export interface NWayRow {
  type: string;
  def: MetricDef;
  baseline: number | null;
  /** One per compared run, in order (undefined: that run has no such metric). */
  others: (ComparisonRow | undefined)[];
}

/** Rows in the order of the first pair, then any a later pair adds. */
export function nWayRows(c: NWayComparison): NWayRow[] {
  const key = (r: ComparisonRow) => `${r.type}/${r.def.metric}`;
  const order = new Map<string, NWayRow>();
  c.pairs.forEach((pair, i) => {
    for (const r of pair.rows) {
      const row = order.get(key(r)) ?? { type: r.type, def: r.def, baseline: r.meanA, others: c.pairs.map(() => undefined) };
      row.baseline ??= r.meanA;
      row.others[i] = r;
      order.set(key(r), row);
    }
  });
  return [...order.values()];
}

/** Every run's side summary: the baseline's, then each compared run's. */
export const sidesOf = (c: NWayComparison): SideSummary[] => (c.pairs.length ? [c.pairs[0]!.a, ...c.pairs.map((p) => p.b)] : []);

/** A value in its metric's unit (a share as a percentage). */
export function formatValue(v: number | null | undefined, def: MetricDef): string {
  if (v === null || v === undefined) return '—';
  if (def.unit === '') return `${(v * 100).toFixed(2)} %`;
  if (def.unit === 'ms') return `${v.toFixed(1)} ms`;
  if (def.unit === 's') return `${(v * 1000).toFixed(1)} ms`;
  if (def.unit === '/s') return `${v.toFixed(2)} /s`;
  return `${v.toFixed(1)} ${def.unit}`;
}

/** "+12.0 ms [+3.1, +20.9]" — the difference against the baseline with its interval. */
export function formatDifference(r: ComparisonRow): string {
  if (r.diff === null) return '—';
  const signed = (v: number) => {
    const text = formatValue(Math.abs(v), r.def);
    return `${v < 0 ? '−' : '+'}${text}`;
  };
  const interval = r.lo === null || r.hi === null ? '' : ` [${signed(r.lo)}, ${signed(r.hi)}]`;
  return `${signed(r.diff)}${interval}`;
}

/** What a cell says about significance. */
export const verdictOf = (r: ComparisonRow): string => (r.note ? r.note : !r.significant ? 'not significant' : r.direction === 'none' ? 'significant' : `significant, ${r.direction}`);
