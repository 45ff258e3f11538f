// Does a replay agree with its original? Rule: it agrees when no headline metric differs
// significantly (every 95% interval of B − A includes 0); it disagrees when one does; it is
// inconclusive when none does but some could not be tested (fewer than two valid runs a side).
import type { Comparison, ComparisonRow } from '../compare/compare';

/** The figures a reader of the tables would quote. */
export const HEADLINE = ['all/p50', 'all/p95', 'all/throughput', 'all/koShare', 'sps/p50', 'sps/p95', 'sps/koShare', 'run/cpuSPerIteration'];

export interface Agreement {
  verdict: 'agrees' | 'disagrees' | 'inconclusive';
  differing: string[];
  untestable: string[];
  rule: string;
}

export const AGREEMENT_RULE = 'agrees when every headline metric (overall and SPS p50/p95, throughput, KO share, CPU per iteration) has a 95% interval of replay − original that includes 0';

export function replayAgreement(c: Comparison, headline = HEADLINE): Agreement {
  const key = (r: ComparisonRow): string => `${r.type}/${r.def.metric}`;
  const rows = c.rows.filter((r) => headline.includes(key(r)));
  const differing = rows.filter((r) => r.significant).map(key);
  const untestable = rows.filter((r) => r.lo === null).map(key);
  const verdict = differing.length ? 'disagrees' : untestable.length || rows.length === 0 ? 'inconclusive' : 'agrees';
  return { verdict, differing, untestable, rule: AGREEMENT_RULE };
}
