// What `compare` compares, read from one run's record (run-N.json), hold stage (what the tables
// use): per request type p50/p95/p99, throughput and KO share; per run CPU per iteration and
// memory. Keys are "<type>/<metric>"; "all" is every request together, "run" the whole run.
import type { MetricDef } from '@shellgrade/console-contract';
import type { PaperMetrics, RunRecord } from '../types';

/** Declared in the console's contract (compare.json carries each row's). */
export type { MetricDef };

export const REQUEST_METRICS: MetricDef[] = [
  { metric: 'p50', label: 'p50 of OK responses', unit: 'ms', better: 'lower' },
  { metric: 'p95', label: 'p95 of OK responses', unit: 'ms', better: 'lower' },
  { metric: 'p99', label: 'p99 of OK responses', unit: 'ms', better: 'lower' },
  { metric: 'throughput', label: 'throughput (OK/s)', unit: '/s', better: 'higher' },
  { metric: 'koShare', label: 'KO share KO/(OK+KO)', unit: '', better: 'lower' },
];

export const RUN_METRICS: MetricDef[] = [
  { metric: 'cpuSPerIteration', label: 'variant CPU per iteration', unit: 's', better: 'lower' },
  { metric: 'memMiB', label: 'variant memory (mean PSS)', unit: 'MiB', better: 'lower' },
];

export const ALL = 'all';
export const RUN = 'run';

const share = (ko: number, ok: number): number | null => (ok + ko > 0 ? ko / (ok + ko) : null);

function holdOf(r: RunRecord): PaperMetrics {
  return r.paper.stages?.hold ?? r.paper;
}

/** Every comparable value of one run, keyed "<type>/<metric>" (null when the run has none). */
export function runMetrics(r: RunRecord): Record<string, number | null> {
  const hold = holdOf(r);
  const out: Record<string, number | null> = {
    [`${ALL}/p50`]: hold.p50,
    [`${ALL}/p95`]: hold.p95,
    [`${ALL}/p99`]: hold.p99,
    [`${ALL}/throughput`]: hold.throughput,
    [`${ALL}/koShare`]: share(hold.KO, hold.OK),
    [`${RUN}/cpuSPerIteration`]: r.paper.iterations.started > 0 ? r.resources.variantCpuS / r.paper.iterations.started : null,
    [`${RUN}/memMiB`]: r.resources.variantPssMeanBytes / 2 ** 20,
  };
  for (const [type, t] of Object.entries(hold.perType)) {
    out[`${type}/p50`] = t.p50 ?? null;
    out[`${type}/p95`] = t.p95 ?? null;
    out[`${type}/p99`] = t.p99 ?? null;
    out[`${type}/throughput`] = hold.durationS > 0 ? t.ok / hold.durationS : null;
    out[`${type}/koShare`] = share(t.ko, t.ok);
  }
  return out;
}
