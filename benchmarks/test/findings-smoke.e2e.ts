// e2e-variants: naked-mon, msa-1-1
// End-to-end: `npm run findings` scaled down to a smoke run — the same runFindings and evaluation
// as the benchmark command, with its smoke plan (naked-mon and msa-1-1) cut to seconds: a rate of
// 2 it/s given (no calibration), one paper-equivalent probe (naked-mon at 2× = 4 it/s: the closest
// VALID probe is the search's answer, its EFR reported beside it), then two rounds of the 0.5×
// cells (1 it/s, 1 s ramp + 3 s hold; the paper cells are left out to keep it short) on the real
// variants with the client placed apart. The runs use k6's smoke profile (0.2 s think time, 20
// students) instead of the small one: with its 5 s pauses each iteration of scenario R outlived
// the 4 s schedule by some 25 s, five times over; the same five runs, rounds and report. Asserted: the record (seed, probe, rounds, run ids) and
// the report with every claim and its methodology. Verdicts and figures are the benchmark's.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAIMS } from '../src/findings/claims';
import { findingsPlan, type FindingsPlan } from '../src/findings/plan';
import { RECORD_FILE, type FindingsRecord } from '../src/findings/record';
import { evaluateRecord, runFindings } from '../src/findings/run';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-findings-e2e-'));

function secondsPlan(): FindingsPlan {
  const smoke = findingsPlan('smoke', { seed: 42, capacity: { rate: 2, source: 'findings-smoke.e2e.ts' } });
  return { ...smoke, cells: smoke.cells.filter((c) => c.level === '0.5x'), protocol: { ...smoke.protocol, profile: 'smoke', rampS: 1, holdS: 3, pauseS: 0, paperProbes: 1 } };
}

it('findings (smoke): the search, two seeded rounds of the 0.5× cells, the record and the report of all ten claims', async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  const dir = join(work, 'results', 'findings', 'smoke');
  const plan = secondsPlan();

  const record = await runFindings(plan, dir);

  const saved = JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8')) as FindingsRecord;
  expect(saved.seed).toBe(42);
  expect(saved.endedAt).not.toBeNull();
  expect(saved.paper.probes).toHaveLength(1);
  expect(saved.paper.probes[0]).toMatchObject({ multiple: 2, peak: 4 });
  expect(saved.paper).toMatchObject({ multiple: 2, runId: saved.paper.probes[0].runId });
  expect(saved.peaks).toEqual({ '0.5x': 1, paper: 4 });
  expect(saved.failed).toEqual([]);
  expect(Object.keys(saved.runs).sort()).toEqual(['msa-1-1@0.5x', 'naked-mon@0.5x']);
  for (const ids of Object.values(saved.runs)) {
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(existsSync(join(work, 'results', id, 'run-1.json'))).toBe(true);
  }
  expect(saved.rounds.map((r) => [...r].sort())).toEqual([
    ['msa-1-1@0.5x', 'naked-mon@0.5x'],
    ['msa-1-1@0.5x', 'naked-mon@0.5x'],
  ]);

  const out = evaluateRecord(plan, record, dir);
  expect(out.files.map((f) => f.slice(dir.length + 1))).toEqual(['findings.md', 'findings.html', 'findings.json']);
  for (const c of CLAIMS) expect(out.markdown).toContain(`> ${c.quote}`);
  expect(out.markdown).toContain('## Methodology (Papadopoulos et al., IEEE TSE 2019)');
  expect(out.markdown).toContain('client on CPU');
  expect(out.markdown).toMatch(/paper-equivalent 2× \(naked-mon EFR [\d.]+% vs 61\.5%, 1 probes\)/);
});
