// The resilience table: rows = faults, columns = variants, a cell per runs with
// lost, EFR during and recovery; loss anywhere named in the notes. Read back from faults.json files.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultResult } from '../src/faults/analyse';
import { pairVerdictTable, readFaultRuns, resilienceTable, writeResilienceReport } from '../src/faults/resilience';
import { pairVerdicts, resilienceMatrix } from '@shellgrade/console-contract';

const window = (EFR: number) => ({ fromMs: 0, toMs: 1, N: 10, OK: 10, KO: 0, RAC: 1, EFR, koCauses: {}, p95Ms: 100 });

function run(fault: string, variant: string, o: { lost?: number | null; EFR?: number; recoveredAfterMs?: number | null; runId?: string } = {}): FaultResult {
  const recovered = o.recoveredAfterMs !== null;
  return {
    fault,
    variant,
    runId: o.runId ?? `${variant}-${fault}`,
    rate: 2,
    applied: { fault, target: 'x', undo: 'y', injectedAtMs: 0, undoneAtMs: 1 },
    before: window(0),
    during: window(o.EFR ?? 0.25),
    after: window(0),
    timeToFirstErrorMs: null,
    recovery: { baselineP95Ms: 100, thresholdMs: 110, recovered, sinceInjectMs: recovered ? (o.recoveredAfterMs ?? 2000) + 1000 : null, sinceUndoMs: recovered ? (o.recoveredAfterMs ?? 2000) : null, lastP95Ms: 100, lastKO: 0, bucketMs: 5000 },
    audit: null,
    lost: o.lost === undefined ? 0 : o.lost,
    duplicated: o.lost === null ? null : 0,
    crashes: [],
    valid: true,
    reasons: [],
  };
}

describe('resilience table', () => {
  it('one row per fault, one column per variant, every run of a cell side by side', () => {
    const t = resilienceTable([run('kill-one:exercise', 'msa-1-2'), run('kill-one:exercise', 'msa-1-2', { EFR: 0.1, recoveredAfterMs: null, runId: 'msa-1-2-kill-one:exercise-2' }), run('restart:postgres', 'naked-mon', { lost: null })], ['naked-mon', 'msa-1-2']);
    expect(t.columns).toEqual(['naked-mon', 'msa-1-2']);
    expect(t.rows.map((r) => r.label)).toEqual(['kill-one:exercise', 'restart:postgres']);
    expect(t.rows[0].cells).toEqual(['–', 'lost 0/0 · EFR 25.0 %/10.0 % · rec 2.0 s/not recovered']);
    expect(t.rows[1].cells).toEqual(['lost n/a · EFR 25.0 % · rec 2.0 s', '–']);
    expect(t.notes.at(-1)).toBe('NOT zero-loss: restart:postgres on naked-mon (results/naked-mon-restart:postgres)');
  });

  it('names every lossy run, and says zero-loss only when all were audited and balanced', () => {
    expect(resilienceTable([run('outage:redis', 'mon-x2', { lost: 3 })]).notes.at(-1)).toMatch(/NOT zero-loss: outage:redis on mon-x2/);
    expect(resilienceTable([run('outage:redis', 'mon-x2')]).notes.at(-1)).toBe('zero-loss in all 1 runs.');
  });

  it('reads faults.json files (this slice\'s object and the first slice\'s bare array) and writes Markdown and HTML', () => {
    const results = mkdtempSync(join(tmpdir(), 'sg-resilience-'));
    mkdirSync(join(results, 'a-msa-1-2-faults'));
    mkdirSync(join(results, 'b-naked-mon-faults'));
    writeFileSync(join(results, 'a-msa-1-2-faults', 'faults.json'), JSON.stringify({ schema: 'shellgrade.faults/1', results: [run('latency:exercise', 'msa-1-2')] }));
    writeFileSync(join(results, 'b-naked-mon-faults', 'faults.json'), JSON.stringify([run('kill-one:monolith', 'naked-mon')]));
    const runs = readFaultRuns([results, join(results, 'a-msa-1-2-faults')]);
    expect(runs.map((r) => r.fault).sort()).toEqual(['kill-one:monolith', 'latency:exercise']);
    const out = writeResilienceReport(results, runs);
    expect(readFileSync(out.markdown, 'utf8')).toContain('| latency:exercise | lost 0 · EFR 25.0 % · rec 2.0 s | – |');
    expect(readFileSync(out.html, 'utf8')).toContain('<th>kill-one:monolith</th><td>–</td><td>lost 0 · EFR 25.0 % · rec 2.0 s</td>');
  });
});

describe('architecture verdicts over cells of 3 runs or more', () => {
  const cell = (variant: string, efr: number[], recoveredAfterMs: (number | null)[]) =>
    efr.map((EFR, i) => run('kill-one:exercise', variant, { EFR, recoveredAfterMs: recoveredAfterMs[i], runId: `${variant}-${i}` }));

  it("gives B − A with Welch's interval and the rank test, as the textbook computes them", () => {
    // A 20/22/24 %, B 10/12/14 %: diff −10 pp, se = √(2 · 0.0004 / 3), df 4, t(0.975, 4) = 2.77645 → ±4.5339 pp.
    // Every B below every A: U = 0, exact two-sided p = 2 / C(6, 3) = 0.1, Cliff's δ = −1.
    const runs = [...cell('mon', [0.2, 0.22, 0.24], [1000, 2000, 3000]), ...cell('msa', [0.1, 0.12, 0.14], [4000, 5000, 6000])];
    const [v] = pairVerdicts(resilienceMatrix([{ id: '', results: runs }]), ['mon', 'msa']);
    expect(v.efrDuring.difference.diff).toBeCloseTo(-0.1, 10);
    expect(v.efrDuring.difference.lo).toBeCloseTo(-0.1 - 0.045339, 5);
    expect(v.efrDuring.difference.hi).toBeCloseTo(-0.1 + 0.045339, 5);
    expect(v.efrDuring.rank).toMatchObject({ p: 0.1, cliffsDelta: -1, method: 'exact' });
    expect(v.efrDuring.reading).toBe('msa lower');
    // Recovery 1/2/3 s vs 4/5/6 s: +3 s, se = √(2/3), df 4 → ±2.27 s.
    expect(v.recovery.difference.diff).toBeCloseTo(3000, 6);
    expect(v.recovery.difference.hi! - v.recovery.difference.diff!).toBeCloseTo(2266.9, 0);
    expect(v.recovery.reading).toBe('msa higher');
  });

  it('censors a run not recovered (ranked above every recovered one, no interval) and skips cells under 3 runs', () => {
    const runs = [...cell('mon', [0.2, 0.2, 0.2], [1000, null, null]), ...cell('msa', [0.2, 0.2, 0.2], [500, 600, 700]), ...cell('msa-2', [0.1, 0.1], [1, 2])];
    const verdicts = pairVerdicts(resilienceMatrix([{ id: '', results: runs }]), ['mon', 'msa', 'msa-2']);
    expect(verdicts.map((v) => `${v.a}/${v.b}`)).toEqual(['mon/msa']);
    const [v] = verdicts;
    expect(v.efrDuring.reading).toBe('no significant difference');
    expect(v.recovery.note).toBe('not recovered within the window: 2 of 3 vs 0 of 3 runs');
    expect(v.recovery.difference.lo).toBeNull();
    expect(v.recovery.rank!.cliffsDelta).toBe(-1);
    const t = pairVerdictTable(runs, ['mon', 'msa', 'msa-2']);
    expect(t.rows).toHaveLength(1);
    expect(t.rows[0].cells[0]).toBe('mon vs msa');
    expect(t.rows[0].cells[5]).toBe('not recovered within the window: 2 of 3 vs 0 of 3 runs');
  });
});
