// The resilience table (issue 35 item 4): rows = faults, columns = variants, a cell per runs with
// lost, EFR during and recovery; loss anywhere named in the notes. Read back from faults.json files.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultResult } from '../src/faults/analyse';
import { readFaultRuns, resilienceTable, writeResilienceReport } from '../src/faults/resilience';

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
