// The 2 × 2 design: architecture (monolith vs MSA) × grader execution (blocking vs async).
// For each metric: the architecture effect under each grader, the grader effect under each
// architecture, and their interaction — how much of "MSA vs monolith" is the blocking grader.
import { difference, type Difference } from '@shellgrade/stats';
import type { Side } from '../compare/sides';
import { DESIGN_ROLES, type FindingMetric, type Role } from './claims';
import { contrast, type ContrastEstimate } from './contrast';
import { metricValues } from './metrics';

export { DESIGN_ROLES };
export const DESIGN_METRICS: FindingMetric[] = ['p95', 'efr', 'throughput', 'cpuPerIteration'];

export interface DesignRow {
  metric: FindingMetric;
  /** Mean over valid runs per cell (null: cell missing or no value). */
  means: Partial<Record<Role, number | null>>;
  architectureBlocking: Difference | null;
  architectureAsync: Difference | null;
  graderMonolith: Difference | null;
  graderMsa: Difference | null;
  /** (msa-async − mon-async) − (msa-blocking − mon-blocking). */
  interaction: ContrastEstimate | null;
}

function diffOf(cells: Partial<Record<Role, Side>>, a: Role, b: Role, metric: FindingMetric): Difference | null {
  const sa = cells[a];
  const sb = cells[b];
  return sa && sb ? difference(metricValues(sa.runs, metric), metricValues(sb.runs, metric)) : null;
}

export function designRow(cells: Partial<Record<Role, Side>>, metric: FindingMetric): DesignRow {
  const values = Object.fromEntries(DESIGN_ROLES.map((r) => [r, cells[r] ? metricValues(cells[r].runs, metric) : null])) as Record<Role, number[] | null>;
  const means = Object.fromEntries(DESIGN_ROLES.map((r) => [r, values[r]?.length ? values[r].reduce((s, x) => s + x, 0) / values[r].length : null]));
  const complete = DESIGN_ROLES.every((r) => values[r]?.length);
  return {
    metric,
    means,
    architectureBlocking: diffOf(cells, 'mon-blocking', 'msa-blocking', metric),
    architectureAsync: diffOf(cells, 'mon-async', 'msa-async', metric),
    graderMonolith: diffOf(cells, 'mon-blocking', 'mon-async', metric),
    graderMsa: diffOf(cells, 'msa-blocking', 'msa-async', metric),
    interaction: complete
      ? contrast([
          { xs: values['msa-async']!, c: 1 },
          { xs: values['mon-async']!, c: -1 },
          { xs: values['msa-blocking']!, c: -1 },
          { xs: values['mon-blocking']!, c: 1 },
        ])
      : null,
  };
}

export function designTable(cells: Partial<Record<Role, Side>>, metrics = DESIGN_METRICS): DesignRow[] {
  return metrics.map((m) => designRow(cells, m));
}
