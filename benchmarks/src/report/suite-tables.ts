// Suite results (load, soak, stress, spike) as tables: per step, and the kind's verdict.
// Definitions and thresholds: benchmarks/METRICS.md, "Suites".
import type { SuiteRun } from '../suites/analyse';
import { soakLine, spikeLine, stressLine } from '../suites/describe';
import type { Table } from './tables';

export interface LabelledSuiteRun {
  label: string;
  suiteRun: SuiteRun;
}

const pct = (v: number | null): string => (v === null ? 'n/a' : `${(100 * v).toFixed(2)}%`);
const ms = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} ms`);
const mib = (v: number | null): string => (v === null ? 'n/a' : `${(v / 2 ** 20).toFixed(1)} MiB`);

function causes(c: Record<string, number>): string {
  const parts = Object.entries(c).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function stepTable(x: LabelledSuiteRun): Table {
  const r = x.suiteRun;
  const marks = new Map((r.stress?.steps ?? []).map((m) => [m.index, m]));
  const rows = r.steps.map((s) => {
    const m = marks.get(s.index);
    const mark = m ? [m.broken ? 'broken' : m.gradingBroken ? 'grading broken' : m.meetsSlo ? 'meets SLO' : 'misses SLO'] : [];
    return {
      label: `step ${s.index + 1}: ${s.rate} it/s`,
      cells: [`${s.fromS}–${s.toS}`, String(s.iterations), String(s.N), String(s.ok), String(s.ko), pct(s.koShare), pct(s.okShare), pct(s.spsOkShare ?? null), s.okPerS.toFixed(2), ms(s.p50), ms(s.p95), causes(s.koCauses), ...mark],
    };
  });
  return {
    id: `table-suite-steps-${x.label.replace(/[^a-z0-9]+/gi, '-')}-run-${r.run}`,
    title: `Suite ${r.kind} — ${x.label}, run ${r.run}: per step`,
    columns: ['s from start', 'iterations', 'N', 'OK', 'KO', 'KO share', 'OK / N', 'SPS OK / iterations', 'OK/s', 'p50', 'p95', 'KO causes', ...(r.stress ? ['stress'] : [])],
    rows,
    notes: [
      'Every request counts in the step its iteration started in (steps add up to the k6 totals); a step begins with its transition ramp. KO share = KO / (OK + KO); OK / N over the planned requests (10 per iteration); OK/s = OK / step length; p50/p95 of OK requests.',
      `Totals from the request lines: ${r.totals.ok} OK, ${r.totals.ko} KO, ${r.totals.iterations} iterations; k6's counters: ${r.k6.OK} OK, ${r.k6.KO} KO, ${r.k6.iterations} iterations.`,
    ],
  };
}

function verdictCells(r: SuiteRun): [string, string] {
  if (r.stress) return [r.stress.knee ? `knee ${r.stress.knee.rate} it/s` : 'no knee', stressLine(r.stress)];
  if (r.soak) return [r.soak.pass ? 'PASS' : 'FAIL', soakLine(r.soak)];
  if (r.spike) return [r.spike.recovered ? `recovered in ${r.spike.recoveryS} s` : 'never recovered', spikeLine(r.spike)];
  const last = r.steps[r.steps.length - 1];
  return ['per step', last ? `highest step ${last.rate} it/s: KO share ${pct(last.koShare)}, p95 ${ms(last.p95)}` : 'no step'];
}

export function verdictTable(all: LabelledSuiteRun[]): Table {
  return {
    id: 'table-suite-verdicts',
    title: 'Suites: verdicts (load per step, soak pass/fail, stress knee and breaking point, spike recovery time)',
    columns: ['suite', 'verdict', 'details'],
    rows: all.map((x) => ({ label: `${x.label} run ${x.suiteRun.run}`, cells: [x.suiteRun.kind, ...verdictCells(x.suiteRun)] })),
    notes: [
      'Stress: knee = last step of the initial run of steps with KO share ≤ 1 % and p95 ≤ 10 s; breaking point = first step with OK / N ≤ 10 %; grading breaking point = first step where ≤ 10 % of the iterations had their SPS answered OK (the grader can fail completely while logins and pages still work). Soak: PSS of every variant process grows ≤ 10 % between the first and last drift windows after warm-up, p95 rises ≤ 10 %, 0 KO. Spike: time from the end of the burst to the first window from which every window has p95 ≤ (1 + tolerance) × the pre-spike p95 and ≤ 1 % KO (resolution: one window).',
    ],
  };
}

export function soakMemoryTable(x: LabelledSuiteRun): Table | null {
  const s = x.suiteRun.soak;
  if (!s) return null;
  return {
    id: `table-soak-memory-${x.label.replace(/[^a-z0-9]+/gi, '-')}-run-${x.suiteRun.run}`,
    title: `Soak — ${x.label}, run ${x.suiteRun.run}: memory and p95, first vs last window`,
    columns: [`first window ${s.firstWindowS[0]}–${s.firstWindowS[1]} s`, `last window ${s.lastWindowS[0]}–${s.lastWindowS[1]} s`, 'growth', 'rule'],
    rows: [
      ...s.memory.map((m) => ({ label: `PSS ${m.group}`, cells: [mib(m.firstBytes), mib(m.lastBytes), pct(m.growth), m.pass ? 'pass' : 'FAIL'] })),
      { label: 'p95 of OK requests', cells: [ms(s.p95.firstMs), ms(s.p95.lastMs), pct(s.p95.drift), s.p95.pass ? 'pass' : 'FAIL'] },
      { label: 'KO (whole run)', cells: ['', String(s.ko.count), '', s.ko.pass ? 'pass' : 'FAIL'] },
    ],
    notes: [`Thresholds: PSS growth ≤ ${pct(s.thresholds.maxMemoryGrowth)} per variant process (native servers excluded), p95 drift ≤ ${pct(s.thresholds.maxP95Drift)}, 0 KO. Verdict: ${s.pass ? 'PASS' : 'FAIL'}.`],
  };
}

export function suiteTables(all: LabelledSuiteRun[]): Table[] {
  if (all.length === 0) return [];
  return [verdictTable(all), ...all.flatMap((x) => [stepTable(x), soakMemoryTable(x)]).filter((t): t is Table => t !== null)];
}
