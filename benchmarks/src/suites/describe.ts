// One-line and per-rule wording of a suite run's verdict (runner log, report tables).
import type { SuiteRun } from './analyse';

function pct(v: number | null): string {
  return v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`;
}

function ms(v: number | null): string {
  return v === null ? 'n/a' : `${Math.round(v)} ms`;
}

export function stressLine(s: NonNullable<SuiteRun['stress']>): string {
  const knee = s.knee ? `step ${s.knee.index + 1} (${s.knee.rate} it/s)` : 'none (the first step missed the SLO)';
  const broken = s.breakingPoint ? `step ${s.breakingPoint.index + 1} (${s.breakingPoint.rate} it/s)` : 'not reached (the highest step still served)';
  const line = `knee ${knee}; breaking point ${broken}`;
  if (s.gradingBreakingPoint === undefined) return line;
  const grading = s.gradingBreakingPoint ? `step ${s.gradingBreakingPoint.index + 1} (${s.gradingBreakingPoint.rate} it/s)` : 'not reached (the highest step still graded)';
  return `${line}; grading breaking point ${grading}`;
}

export function soakLine(s: NonNullable<SuiteRun['soak']>): string {
  const worst = s.memory.reduce<number | null>((m, g) => (g.growth === null ? m : m === null ? g.growth : Math.max(m, g.growth)), null);
  return `${s.pass ? 'PASS' : 'FAIL'}: max PSS growth ${pct(worst)}, p95 drift ${pct(s.p95.drift)} (${ms(s.p95.firstMs)} → ${ms(s.p95.lastMs)}), ${s.ko.count} KO${s.failures.length ? ` — ${s.failures.join('; ')}` : ''}`;
}

export function spikeLine(s: NonNullable<SuiteRun['spike']>): string {
  const rec = s.recovered ? `recovered ${s.recoveryS} s after the burst` : 'never recovered before the end of the load';
  return `${s.baselineRate} → ${s.burstRate} it/s; pre-spike p95 ${ms(s.preP95Ms)}, bound ${ms(s.boundMs)} (+${Math.round(100 * s.tolerance)}%): ${rec}`;
}

export function suiteLine(r: SuiteRun): string {
  const head = `${r.kind}: ${r.totals.ok} OK / ${r.totals.ko} KO over ${r.steps.length} step(s)`;
  if (r.stress) return `${head}; ${stressLine(r.stress)}`;
  if (r.soak) return `${head}; soak ${soakLine(r.soak)}`;
  if (r.spike) return `${head}; spike ${spikeLine(r.spike)}`;
  return head;
}
