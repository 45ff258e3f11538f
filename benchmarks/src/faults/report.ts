// faults.json + faults.md: one row per fault run, the windows' figures side by side.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultResult } from './analyse';
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
  return `${head}${lines.join('\n')}\n\nRuns: ${results.map((r) => `${r.fault} → results/${r.runId}${r.valid ? '' : ` (INVALID: ${r.reasons.join('; ')})`}`).join(' · ')}\n`;
}

export function writeFaultsReport(dir: string, results: FaultResult[]): { json: string; markdown: string } {
  const json = join(dir, 'faults.json');
  const markdown = join(dir, 'faults.md');
  writeFileSync(json, JSON.stringify(results, null, 2));
  writeFileSync(markdown, faultsMarkdown(results));
  return { json, markdown };
}
