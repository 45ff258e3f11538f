// faults.json + faults.md: one row per fault run, the windows' figures side by side, and for the
// latency faults whether the trace breakdown named the slowed hop.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultRun, FaultsReport } from '@shellgrade/console-contract';
import type { FaultResult } from './analyse';
import { namedShare, type QuantileIncrease } from './attribution';
import type { WindowFigures } from './series';

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)} %`);
const s = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
const causes = (w: WindowFigures) => Object.entries(w.koCauses).map(([c, n]) => `${c} ${n}`).join(', ') || '–';

function recoveryText(r: FaultResult['recovery']): string {
  if (r.recovered) return `${s(r.sinceUndoMs)} after the undo (${s(r.sinceInjectMs)} after the inject)`;
  return `not recovered: last p95 ${r.lastP95Ms ?? 'n/a'} ms vs ${r.thresholdMs === null ? 'n/a' : r.thresholdMs.toFixed(0)} ms, ${r.lastKO} KO in the last ${r.bucketMs / 1000} s`;
}

export function faultsMarkdown(results: FaultResult[]): string {
  const lines = [
    '| fault | target | RAC before / during / after | EFR before / during / after | KO causes during | KO causes after | first error | recovery (p95 ≤ +10 %) | audit | crashes |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const crashes = r.crashes.map((c) => `${c.process}${c.injected ? ' (injected)' : ' (UNEXPECTED)'}`).join(', ') || 'none';
    lines.push(
      `| ${r.fault} | ${r.applied.target} | ${pct(r.before.RAC)} / ${pct(r.during.RAC)} / ${pct(r.after.RAC)} | ${pct(r.before.EFR)} / ${pct(r.during.EFR)} / ${pct(r.after.EFR)} | ${causes(r.during)} | ${causes(r.after)} | ${s(r.timeToFirstErrorMs)} | ${recoveryText(r.recovery)} | ${r.audit?.summary ?? 'n/a'} | ${crashes} |`,
    );
  }
  const head = results[0] ? `# Faults on ${results[0].variant} at ${results[0].rate} it/s\n\n` : '# Faults\n\n';
  return `${head}${lines.join('\n')}\n${attributionMarkdown(results)}\nRuns: ${results.map((r) => `${r.fault} → results/${r.runId}${r.valid ? '' : ` (INVALID: ${r.reasons.join('; ')})`}`).join(' · ')}\n`;
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

function increaseText(q: QuantileIncrease): string {
  const top = q.increases.slice(0, 3).map(([c, d]) => `${c} ${d >= 0 ? '+' : ''}${ms(d)}`).join(', ');
  const direct = q.largestDirect && q.largestDirect !== q.largest ? ` [waits included: ${q.largestDirect}]` : '';
  return `${ms(q.steadyMs)} → ${ms(q.faultMs)}; largest: ${q.largest ?? 'none'}${direct} (${top})`;
}

/** The latency faults' verdicts and the share named correctly; empty without latency faults. */
function attributionMarkdown(results: FaultResult[]): string {
  const judged = results.filter((r) => r.attribution !== undefined);
  if (judged.length === 0) return '';
  const share = attributionShare(results);
  const lines = ['| fault | steady / fault traces | p50 increase | p95 increase | hop named |', '|---|---|---|---|---|'];
  for (const r of judged) {
    const a = r.attribution;
    if (!a) lines.push(`| ${r.fault} | – | – | – | no verdict: ${r.attributionError ?? 'unknown'} |`);
    else lines.push(`| ${r.fault} | ${a.steadyRequests} / ${a.faultRequests} ${a.requests ?? 'SPS'} | ${increaseText(a.p50)} | ${increaseText(a.p95)} | ${a.named ? 'yes' : 'NO'} (expected ${a.expected.join(' or ')}) |`);
  }
  const summary = share.share === null ? 'no latency fault had a verdict' : `${share.named} of ${share.of} latency faults named correctly (${(100 * share.share).toFixed(0)} %)`;
  return `\n## Attribution of the slowed hop\n\n${summary}; ${judged.length - share.of} without a verdict.\n\n${lines.join('\n')}\n`;
}

/** The share of the latency faults (the runs with an attribution) whose slowed hop was named. */
export function attributionShare(results: FaultResult[]): ReturnType<typeof namedShare> {
  return namedShare(results.filter((r) => r.attribution !== undefined).map((r) => r.attribution));
}

/**
 * faults.json: the runs, and the share of latency faults whose hop the attribution named. What the
 * console reads of it is the contract's (`satisfies`): a field renamed here fails the typecheck.
 */
export function faultsJson(results: FaultResult[]) {
  const read = { attribution: attributionShare(results), results: results satisfies FaultRun[] } satisfies Pick<FaultsReport, 'attribution' | 'results'>;
  return { schema: 'shellgrade.faults/1', ...read };
}

export function writeFaultsReport(dir: string, results: FaultResult[]): { json: string; markdown: string } {
  const json = join(dir, 'faults.json');
  const markdown = join(dir, 'faults.md');
  writeFileSync(json, JSON.stringify(faultsJson(results), null, 2));
  writeFileSync(markdown, faultsMarkdown(results));
  return { json, markdown };
}
