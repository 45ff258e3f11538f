// `bench compare A B`: for every request type and metric, B − A with its 95% interval over the
// VALID runs of each side, flagged significant when the interval excludes 0.
// The result's shape (compare.json) is the console's contract: the server serves it, the web app reads it.
import { type Comparison, type ComparisonRow, type MetricDef, type SideSummary } from '@shellgrade/console-contract';
import { type Difference, difference } from '@shellgrade/stats';
import { ALL, REQUEST_METRICS, RUN, RUN_METRICS, runMetrics } from './run-metrics';
import { speedMismatch } from '../machine-speed';
import type { Side } from './sides';

export type { Comparison, ComparisonRow, SideSummary };

export const METHOD = "Welch's t interval over runs (95%), unequal variances; significant when it excludes 0";

/** Request types in a fixed order: all, the scenario's requests, their OPTIONS preflights, the run. */
function typeOrder(types: Set<string>): string[] {
  const rest = [...types].filter((t) => t !== ALL && t !== RUN);
  const plain = rest.filter((t) => !t.startsWith('opt_')).sort();
  const preflights = rest.filter((t) => t.startsWith('opt_')).sort();
  return [ALL, ...plain, ...preflights, RUN].filter((t) => types.has(t));
}

function summary(s: Side): SideSummary {
  const m = s.result.aggregated.meta;
  return { ref: s.ref, runId: s.result.runId, variant: m.variant, profile: m.profileName, runs: s.runs.map((r) => r.run), excluded: s.excluded, speed: m.machine?.speed };
}

function directionOf(d: Difference, def: MetricDef): ComparisonRow['direction'] {
  if (!d.significant || d.diff === null || d.diff === 0) return 'none';
  return (d.diff < 0) === (def.better === 'lower') ? 'better' : 'worse';
}

export function compareSides(a: Side, b: Side, level = 0.95): Comparison {
  const va = a.runs.map(runMetrics);
  const vb = b.runs.map(runMetrics);
  const keys = new Set([...va, ...vb].flatMap((v) => Object.keys(v)));
  const types = new Set([...keys].map((k) => k.split('/')[0]));
  const rows: ComparisonRow[] = [];
  for (const type of typeOrder(types)) {
    for (const def of type === RUN ? RUN_METRICS : REQUEST_METRICS) {
      const key = `${type}/${def.metric}`;
      if (!keys.has(key)) continue;
      const pick = (vs: Record<string, number | null>[]): number[] => vs.map((v) => v[key]).filter((x): x is number => typeof x === 'number');
      const d = difference(pick(va), pick(vb), level);
      rows.push({ ...d, type, def, direction: directionOf(d, def) });
    }
  }
  const [sa, sb] = [summary(a), summary(b)];
  return { a: sa, b: sb, rows, level, method: METHOD, hostWarning: speedMismatch(sa.speed, sb.speed) };
}
